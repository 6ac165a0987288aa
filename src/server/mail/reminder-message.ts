/** The reminder email: plain text and a simple HTML twin with the same words. */

export interface ReminderMessageInput {
  name: string;
  /** "December 2026" */
  monthLabel: string;
  setDays: number;
  weekdays: number;
  /** the portal's public address, without a trailing slash */
  portalUrl: string;
}

export const PORTAL_NAME = 'Arts Facilitator Portal';

export function reminderSubject(monthLabel: string): string {
  return `Please add your availability for ${monthLabel}`;
}

/** Where the message sends people: the facilitator calendar (the portal's home page). */
export function calendarLink(portalUrl: string): string {
  return `${portalUrl}/`;
}

export function reminderMessage(input: ReminderMessageInput): {
  subject: string;
  text: string;
  html: string;
} {
  const link = calendarLink(input.portalUrl);
  const progress =
    input.setDays === 0
      ? `No weekdays of ${input.monthLabel} have availability yet.`
      : `${input.setDays} of ${input.weekdays} weekdays of ${input.monthLabel} have availability so far.`;
  const lines = [
    `Hello ${input.name},`,
    '',
    `We are planning school sessions for ${input.monthLabel} and your availability is not complete yet. ${progress}`,
    '',
    'Please open your calendar and mark each weekday as available, limited or unavailable:',
    link,
    '',
    'Thank you.',
    PORTAL_NAME,
  ];
  const html = [
    `<p>Hello ${escapeHtml(input.name)},</p>`,
    `<p>We are planning school sessions for ${escapeHtml(input.monthLabel)} and your availability is not complete yet. ${escapeHtml(progress)}</p>`,
    `<p>Please open your calendar and mark each weekday as available, limited or unavailable:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>Thank you.<br>${PORTAL_NAME}</p>`,
  ].join('\n');
  return { subject: reminderSubject(input.monthLabel), text: lines.join('\n'), html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
