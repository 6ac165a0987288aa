/** The email telling a facilitator a booking on their calendar changed: plain text and an HTML twin. */
import { dayLabel } from '../../shared/safeguarding';
import { PORTAL_NAME } from './reminder-message';

export interface BookingMessageInput {
  name: string;
  change: 'added' | 'moved' | 'cancelled';
  /** the session's day (after a move: the new day) */
  date: string;
  /** the day a moved session was on */
  previousDate?: string;
  /** the portal's public address, without a trailing slash */
  portalUrl: string;
  /** the calendar path at the session's day */
  path: string;
}

export function bookingSubject(input: Pick<BookingMessageInput, 'change' | 'date' | 'previousDate'>): string {
  switch (input.change) {
    case 'added':
      return `A session on ${dayLabel(input.date)} was added to your calendar`;
    case 'moved':
      return `A session on ${dayLabel(input.previousDate ?? input.date)} was moved`;
    case 'cancelled':
      return `A session on ${dayLabel(input.date)} was cancelled`;
  }
}

export function bookingMessage(input: BookingMessageInput): { subject: string; text: string; html: string } {
  const subject = bookingSubject(input);
  const link = `${input.portalUrl}${input.path}`;
  const detail =
    input.change === 'moved' && input.previousDate && input.previousDate !== input.date
      ? `${subject}. It is now on ${dayLabel(input.date)}.`
      : `${subject}.`;
  const text = [`Hello ${input.name},`, '', detail, '', 'See your calendar:', link, '', PORTAL_NAME].join(
    '\n',
  );
  const html = [
    `<p>Hello ${escapeHtml(input.name)},</p>`,
    `<p>${escapeHtml(detail)}</p>`,
    `<p>See your calendar:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${PORTAL_NAME}</p>`,
  ].join('\n');
  return { subject, text, html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
