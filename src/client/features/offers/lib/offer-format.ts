import { dayOfWeek, formatTimeRange, MONTH_NAMES, parseDateString, WEEKDAY_NAMES } from '@shared/calendar';
import type { MyOffer, OfferEndReason, OfferState } from '@shared/schemas/offers';

export const STATE_LABEL: Record<OfferState, string> = {
  sent: 'Sent',
  seen: 'Seen',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

export const STATE_VARIANT: Record<
  OfferState,
  'secondary' | 'success' | 'warning' | 'outline' | 'destructive'
> = {
  sent: 'secondary',
  seen: 'secondary',
  accepted: 'success',
  declined: 'warning',
  expired: 'outline',
  withdrawn: 'outline',
};

/** What an offer's badge says: a withdrawn one says who ended it. */
export function stateLabel(offer: Pick<MyOffer, 'state' | 'endedReason'>): string {
  if (offer.state !== 'withdrawn' || !offer.endedReason) return STATE_LABEL[offer.state];
  return WITHDRAWN_LABEL[offer.endedReason];
}

const WITHDRAWN_LABEL: Record<OfferEndReason, string> = {
  staff: 'Withdrawn by the team',
  taken: 'Taken by another facilitator',
  sharepoint: 'Acceptance undone',
  'session-gone': 'Session filled or cancelled',
  safeguarding: 'Withdrawn: checks no longer cover it',
};

export const END_REASON_LABEL: Record<OfferEndReason, string> = {
  staff: 'The team withdrew this offer.',
  taken: 'Another facilitator accepted it first.',
  sharepoint:
    'The session was filled or changed in SharePoint before your acceptance was recorded, so it was undone.',
  'session-gone': 'The session was cancelled or given to someone else.',
  safeguarding:
    "The safeguarding checks on record no longer cover the session's day, so the offer was withdrawn.",
};

/** "Wednesday 2 December 2026" */
export function dayLabel(date: string): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]} ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

export function timesOf(s: { startTime: string | null; endTime: string | null }): string {
  return formatTimeRange(s.startTime, s.endTime) || 'Times not set';
}

export function placeOf(s: { schoolName: string | null; program: string | null; title: string }): string {
  const school = s.schoolName?.trim() || s.title.trim() || 'School not set';
  const program = s.program?.trim();
  return program ? `${school} – ${program}` : school;
}

/** "Reply by Wed 25 Nov, 5:00 PM" in the browser's time zone. */
export function replyByLabel(iso: string): string {
  return new Date(iso)
    .toLocaleString('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
    .replace(/\b(am|pm)\b/, (period) => period.toUpperCase());
}

export const isOpen = (offer: Pick<MyOffer, 'state' | 'replyBy'>, now = Date.now()) =>
  (offer.state === 'sent' || offer.state === 'seen') && new Date(offer.replyBy).getTime() > now;

/** The value of a datetime-local input for an instant, in the browser's time zone. */
export function localInputValue(instant: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

/** A default reply-by time: 5 PM tomorrow, or an hour before the session when that is sooner. */
export function defaultReplyBy(
  session: { date: string; startTime: string | null },
  now = new Date(),
): string {
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(17, 0, 0, 0);
  const [h, m] = (session.startTime ?? '00:00').split(':').map(Number);
  const { year, month, day } = parseDateString(session.date);
  const start = new Date(year, month - 1, day, h ?? 0, m ?? 0);
  const hourBefore = new Date(start.getTime() - 60 * 60_000);
  return localInputValue(hourBefore < tomorrow && hourBefore > now ? hourBefore : tomorrow);
}
