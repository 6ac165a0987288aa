/** Emails about offers: plain text and an HTML twin with the same words. */
import {
  dayOfWeek,
  formatTimeRange,
  MONTH_NAMES,
  parseDateString,
  WEEKDAY_NAMES,
} from '../../shared/calendar';
import { PORTAL_NAME } from './reminder-message';

export interface SessionSummary {
  date: string;
  startTime: string | null;
  endTime: string | null;
  title: string;
  schoolName: string | null;
  program: string | null;
}

export interface OutgoingMessage {
  subject: string;
  text: string;
  html: string;
}

/** "Tuesday 3 March 2026, 9:00 AM – 12:00 PM, Oakfield Primary (Dance)" */
export function describeSession(s: SessionSummary): string {
  const { year, month, day } = parseDateString(s.date);
  const parts = [`${WEEKDAY_NAMES[dayOfWeek(s.date)]} ${day} ${MONTH_NAMES[month - 1]} ${year}`];
  if (s.startTime || s.endTime) parts.push(formatTimeRange(s.startTime ?? '', s.endTime ?? ''));
  const school = s.schoolName?.trim() || s.title.trim();
  const program = s.program?.trim();
  if (school) parts.push(program ? `${school} (${program})` : school);
  else if (program) parts.push(program);
  return parts.join(', ');
}

/** A message of plain paragraphs (and links), as text and as HTML with the same words. */
export function composeMessage(
  subject: string,
  paragraphs: Array<string | { link: string }>,
): OutgoingMessage {
  const text = paragraphs.map((p) => (typeof p === 'string' ? p : p.link)).join('\n\n');
  const html = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.link)}</a></p>`,
    )
    .join('\n');
  return { subject, text: `${text}\n`, html };
}

export function offerMessage(input: {
  name: string;
  session: string;
  message: string;
  replyBy: string;
  link: string;
}): OutgoingMessage {
  return composeMessage(`Session offered to you: ${input.session}`, [
    `Hello ${input.name},`,
    `You are offered this session: ${input.session}.`,
    ...(input.message ? [`Message from the team:\n${input.message}`] : []),
    `Please reply by ${input.replyBy}. Open this link to accept or decline (it works once):`,
    { link: input.link },
    'You can also answer from the Offers page of the portal. The first facilitator to accept gets the session.',
    `Thank you.\n${PORTAL_NAME}`,
  ]);
}

export function offerEndedMessage(input: { name: string; session: string; why: string }): OutgoingMessage {
  return composeMessage(`Offer withdrawn: ${input.session}`, [
    `Hello ${input.name},`,
    `The offer of this session is withdrawn: ${input.session}.`,
    input.why,
    `Thank you.\n${PORTAL_NAME}`,
  ]);
}

export function acceptanceUndoneStaffMessage(input: {
  name: string;
  facilitator: string;
  session: string;
}): OutgoingMessage {
  return composeMessage(`Acceptance not recorded in SharePoint: ${input.session}`, [
    `Hello ${input.name},`,
    `${input.facilitator} accepted this session, but SharePoint showed it filled or changed before the acceptance could be written: ${input.session}.`,
    'The acceptance was undone and the facilitator has been told. Check the session in SharePoint, then refresh bookings in the portal.',
    PORTAL_NAME,
  ]);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
