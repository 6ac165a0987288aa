import {
  dayOfWeek,
  formatClockTime,
  formatTime12,
  formatTimeRange,
  MONTH_NAMES,
  parseDateString,
  WEEKDAY_NAMES,
} from '@shared/calendar';
import { SAFEGUARDING_STATE_LABELS, type SafeguardingState } from '@shared/safeguarding';
import type { ChangeSource, HistoryEntry } from '@shared/schemas/history';
import { STATUS_LABELS } from '@/lib/availability-status';

/** How a change was made, as the history shows it after "via". */
export const VIA_LABEL: Record<ChangeSource, string> = {
  facilitator: 'own calendar',
  staff: 'staff edit',
  bulk: 'bulk update',
  pattern: 'recurring pattern',
  sharepoint: 'SharePoint',
  email: 'email link',
  automatic: 'reply-by time',
};

/** The same for offers and sessions, which are answered and made elsewhere than a calendar. */
const OFFER_VIA_LABEL: Record<ChangeSource, string> = {
  ...VIA_LABEL,
  facilitator: 'the portal',
  staff: 'Open sessions',
};

/** How the change was made, for the line under it. */
export function viaLabel(entry: HistoryEntry): string {
  if (entry.entity !== 'offer' && entry.entity !== 'session') return VIA_LABEL[entry.via];
  // the scheduler both expires offers and offers the session to the next facilitator
  if (entry.via === 'automatic' && entry.action === 'create') return 'offer to the next facilitator';
  return OFFER_VIA_LABEL[entry.via];
}

// history holds whatever was stored, so any string may be looked up
const STATUS_LABEL: Record<string, string | undefined> = STATUS_LABELS;
const PRIORITY_LABEL: Record<string, string> = { normal: 'Normal', high: 'High', urgent: 'Urgent' };

/** Field names as people say them; a field not listed here is shown by its key. */
const FIELD_LABEL: Record<string, string> = {
  status: 'Status',
  times: 'Times',
  notes: 'Note',
  note: 'Note',
  priority: 'Priority',
  date: 'Day',
  username: 'Username',
  displayName: 'Name',
  email: 'Email',
  freelancerId: 'Freelancer ID',
  role: 'Role',
  area: 'Area',
  siteUrl: 'Site URL',
  availabilityListName: 'Availability list',
  bookingsListName: 'Bookings list',
  facilitatorListName: 'Facilitators list',
  schoolsListName: 'Schools list',
  tenantId: 'Tenant ID',
  clientId: 'Client ID',
  dbsCertificate: 'DBS certificate',
  dbsIssueDate: 'DBS issued',
  enhancedWithBarredList: 'Enhanced with barred list',
  onUpdateService: 'On the Update Service',
  statusCheckedOn: 'Last status check',
  checkedBy: 'Checked by',
  otherChecks: 'Other checks',
  microsoftAccount: 'Microsoft account',
  invitationValidUntil: 'Invitation valid until',
  replacesLinkedAccount: 'Replaces the linked Microsoft account',
  invitedBy: 'Invited by',
  staffAppRole: 'Created from the staff app role',
  dbsMonths: 'Months from the issue date',
  updateServiceMonths: 'Months from the last status check',
  warningDays: 'Warning days',
  checkTypes: 'Other checks',
};

/** A change of the account's link to Microsoft, by what happened (the history's `event`). */
const MICROSOFT_EVENT: Record<string, string> = {
  invited: 'sent an invitation to sign in with Microsoft',
  linked: 'linked a Microsoft account',
  replaced: 'replaced the linked Microsoft account',
  unlinked: 'removed Microsoft sign-in',
};

/** A password set through an emailed link, or such a link sent, by what happened (`event`). */
const PASSWORD_LINK_EVENT: Record<string, string> = {
  reset: 'set a new password through a reset email',
  invitation: 'accepted the invitation and set a password',
  invited: 'sent an invitation to set a password',
};

/** A passkey added, renamed or removed, by what happened (`event`); the sentence names the passkey. */
function passkeyWords(before: Values | null, after: Values): string {
  const name = typeof after.passkey === 'string' ? after.passkey : '';
  const was = typeof before?.passkey === 'string' ? before.passkey : '';
  switch (after.event) {
    case 'passkey-added':
      return name ? `added the passkey "${name}"` : 'added a passkey';
    case 'passkey-renamed':
      if (was && name) return `renamed the passkey "${was}" to "${name}"`;
      return name ? `renamed a passkey to "${name}"` : 'renamed a passkey';
    case 'passkey-removed':
      return name ? `removed the passkey "${name}"` : 'removed a passkey';
    default:
      return 'changed the passkeys';
  }
}

/** Secrets: the history only ever says that they changed. */
const SECRET_LABEL: Record<string, string> = { password: 'Password', clientSecret: 'Client secret' };

/** "Mon 4 Jan 2027", from the date string alone. */
export function shortDay(date: string): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]!.slice(0, 3)} ${day} ${MONTH_NAMES[month - 1]!.slice(0, 3)} ${year}`;
}

/** When a change was made, in the organisation's time zone: "23 Nov 2026, 2:05 PM GMT". */
export function formatWhen(iso: string, timeZone: string): string {
  const when = new Date(iso);
  try {
    const part = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
      new Intl.DateTimeFormat('en-GB', { timeZone, ...options })
        .formatToParts(when)
        .find((p) => p.type === type)?.value ?? '';
    const day = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    const zone = part({ timeZoneName: 'short' }, 'timeZoneName');
    return `${day.format(when)}, ${formatClockTime(when, timeZone)} ${zone}`;
  } catch {
    return when.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/**
 * Who made a change, as a reader of that person's history says it: the person themselves by name
 * (or "You" in one's own history), anybody else in their role, "Staff (Sam)", or "Facilitator
 * (Chloe)" for another facilitator (who took a session this person was offered), an import as
 * SharePoint.
 */
export function describeActor(entry: HistoryEntry, viewerId?: number): string {
  const name = entry.actorName ?? 'someone';
  if (entry.via === 'sharepoint')
    return entry.actorName ? `SharePoint import (run by ${name})` : 'SharePoint import';
  if (entry.actorId === null) return 'The system';
  if (viewerId !== undefined && entry.actorId === viewerId) return 'You';
  if (entry.entity === 'settings') return `Staff (${name})`;
  if (entry.actorId === entry.subjectUserId) return name;
  // only facilitators act from their own calendar or an offer's email link
  if (entry.via === 'facilitator' || entry.via === 'email') return `Facilitator (${name})`;
  return `Staff (${name})`;
}

type Values = Record<string, unknown>;

/** An availability day's values with the two times as one field. */
function dayFields(values: Values | null): Values | null {
  if (!values) return null;
  const { status, startTime, endTime, ...rest } = values;
  return { status, times: timesText(String(startTime ?? ''), String(endTime ?? '')), ...rest };
}

function timesText(start: string, end: string): string {
  if (start && end) return `${formatTime12(start)} – ${formatTime12(end)}`;
  if (start) return `from ${formatTime12(start)}`;
  if (end) return `until ${formatTime12(end)}`;
  return '';
}

function showValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join(', ') : '(none)';
  const text = String(value);
  if (key === 'status') return STATUS_LABEL[text] ?? text;
  if (key === 'priority') return PRIORITY_LABEL[text] ?? text;
  if (key === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return shortDay(text);
  return text;
}

export interface FieldChange {
  label: string;
  /** absent: the field had no value before (a creation) or the change is only named (a secret) */
  from?: string;
  to?: string;
}

const OVERRIDE_TEXT: Record<string, string> = {
  unavailable: 'marked unavailable that day',
  booked: 'already booked that day',
};

/**
 * An offer's or a session's details beyond its sentence: when to reply by, what staff confirmed and
 * a decline's reason. Its ids, states and the session itself are in the sentence, not repeated.
 */
function offerDetails(entry: HistoryEntry, timeZone: string): FieldChange[] {
  const after = entry.after ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);
  const details: FieldChange[] = [];
  if (entry.entity === 'session') {
    const location = text(after.location);
    if (location) details.push({ label: 'Location', to: location });
    return details;
  }
  const replyBy = text(after.replyBy);
  if (entry.action === 'create' && replyBy)
    details.push({ label: 'Reply by', to: formatWhen(replyBy, timeZone) });
  const override = text(after.override);
  if (override) details.push({ label: 'Offered although', to: OVERRIDE_TEXT[override] ?? override });
  const safeguarding = after.safeguardingOverride as { state?: string; reason?: string } | undefined;
  if (safeguarding && typeof safeguarding === 'object') {
    const state = SAFEGUARDING_STATE_LABELS[safeguarding.state as SafeguardingState] ?? safeguarding.state;
    details.push({
      label: 'Offered despite safeguarding checks',
      to: [state, safeguarding.reason].filter(Boolean).join(': '),
    });
  }
  if (after.autoNext === true)
    details.push({
      label: 'If declined or unanswered',
      to: 'offered to the next facilitator in the ranking',
    });
  const declined = text(after.declineReason);
  if (declined) details.push({ label: 'Reason', to: declined });
  return details;
}

/**
 * What changed, field by field; secrets as "Password changed" with no values. `timeZone`: the
 * organisation's, for the times an offer records.
 */
export function fieldChanges(entry: HistoryEntry, timeZone = 'UTC'): FieldChange[] {
  if (entry.entity === 'offer' || entry.entity === 'session') return offerDetails(entry, timeZone);
  const isDay = entry.entity === 'availability';
  const before = isDay ? dayFields(entry.before) : entry.before;
  const after = isDay ? dayFields(entry.after) : entry.after;
  // a passkey's entry says it all in its sentence (its name, and a rename's old name)
  if (entry.entity === 'account' && after?.section === 'passkeys') return [];
  // the staff sign-in requirement: one setting, said in the sentence
  if (entry.entity === 'settings' && after?.staffSignIn === true) return [];
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: FieldChange[] = [];
  for (const key of keys) {
    // which settings or records an entry is about, or what happened: not a change of its own
    if (key === 'section' || key === 'event') continue;
    if (key in SECRET_LABEL) {
      if (after?.[key] === 'changed') changes.push({ label: `${SECRET_LABEL[key]} changed` });
      continue;
    }
    // a note's day is already shown with the entry; only a move to another day is news
    if (key === 'date' && entry.action !== 'update') continue;
    const was = before?.[key];
    const now = after?.[key];
    const label = FIELD_LABEL[key] ?? key;
    if (entry.action === 'create') {
      if (now !== null && now !== undefined && now !== '') changes.push({ label, to: showValue(key, now) });
    } else if (entry.action === 'delete') {
      if (was !== null && was !== undefined && was !== '') changes.push({ label, from: showValue(key, was) });
    } else if (JSON.stringify(was ?? null) !== JSON.stringify(now ?? null)) {
      changes.push({ label, from: showValue(key, was), to: showValue(key, now) });
    }
  }
  return changes;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** One line saying what happened: "Alice changed Available → Unavailable". */
export function describeChange(entry: HistoryEntry, viewerId?: number): string {
  const who = describeActor(entry, viewerId);
  const status = (values: Values | null) => showValue('status', values?.status);
  switch (entry.entity) {
    case 'availability': {
      if (entry.action === 'create') return `${who} set ${status(entry.after)}`;
      if (entry.before?.status !== entry.after?.status) {
        return `${who} changed ${status(entry.before)} → ${status(entry.after)}`;
      }
      const fields = fieldChanges(entry).map((c) => c.label.toLowerCase());
      return `${who} changed the ${joinWords(fields) || 'day'}`;
    }
    case 'note':
      if (entry.action === 'create') return `${who} added a note`;
      if (entry.action === 'delete') return `${who} deleted a note`;
      return `${who} edited a note`;
    case 'account': {
      if (entry.action === 'create') return `${who} created the account`;
      if (entry.action === 'delete') return `${who} deleted the account`;
      if (entry.after?.section === 'safeguarding') return `${who} updated the safeguarding records`;
      if (entry.after?.section === 'microsoft-sign-in') {
        const event = MICROSOFT_EVENT[String(entry.after.event)];
        return `${who} ${event ?? 'changed Microsoft sign-in'}`;
      }
      if (entry.after?.section === 'passkeys') return `${who} ${passkeyWords(entry.before, entry.after)}`;
      if (entry.after?.section === 'password-link') {
        return `${who} ${PASSWORD_LINK_EVENT[String(entry.after.event)] ?? 'changed the password'}`;
      }
      const changes = fieldChanges(entry);
      if (entry.before?.role !== entry.after?.role) {
        return `${who} changed the role ${showValue('role', entry.before?.role)} → ${showValue('role', entry.after?.role)}`;
      }
      if (changes.length === 1 && changes[0]!.label === 'Password changed')
        return `${who} changed the password`;
      return `${who} updated the account`;
    }
    case 'settings':
      if (entry.after?.section === 'safeguarding') return `${who} changed the safeguarding policy`;
      if (entry.after?.staffSignIn === true) {
        return entry.after.staffPasskeyOrMicrosoft === true
          ? `${who} required passkeys or Microsoft sign-in for staff accounts`
          : `${who} let staff sign in with a password again`;
      }
      return entry.after?.microsoftSignIn === true
        ? `${who} changed the Sign in with Microsoft settings`
        : `${who} changed the SharePoint settings`;
    case 'offer':
      return describeOffer(entry, who);
    case 'session':
      return `${who} created a session${sessionWords(entry.after)}`;
  }
}

/** " on Wednesday 2 December 2026, 9:30 AM – 12:00 PM, Oakfield Primary (Dance)", or nothing. */
function sessionWords(values: Values | null): string {
  if (typeof values?.session === 'string' && values.session) return ` on ${values.session}`;
  // a session created in the portal records its fields
  const date = typeof values?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? values.date : '';
  if (!date) return '';
  const parts = [shortDay(date)];
  const times = formatTimeRange(String(values?.startTime ?? ''), String(values?.endTime ?? ''));
  if (times) parts.push(times);
  const school = String(values?.schoolName ?? '').trim();
  const program = String(values?.program ?? '').trim();
  if (school) parts.push(program ? `${school} (${program})` : school);
  return ` on ${parts.join(', ')}`;
}

/** An offer's step as a sentence: who did what, in their role, and why it ended when it did. */
function describeOffer(entry: HistoryEntry, who: string): string {
  const session = sessionWords(entry.after);
  const offered = entry.subjectName ?? 'the facilitator';
  if (entry.action === 'create') {
    return entry.actorId === null
      ? `The portal offered ${offered} the session${session}, the next in the ranking`
      : `${who} offered ${offered} the session${session}`;
  }
  switch (entry.after?.state) {
    case 'seen':
      return `${who} opened the offer of the session${session}`;
    case 'accepted':
      return `${who} accepted the session${session}`;
    case 'declined':
      return `${who} declined the session${session}`;
    case 'expired':
      return `The offer of the session${session} expired unanswered at its reply-by time`;
    case 'withdrawn':
      switch (entry.after?.reason) {
        case 'taken':
          return `${entry.actorName ? who : 'Another facilitator'} accepted the session${session} first, so this offer was withdrawn`;
        case 'sharepoint':
          return `SharePoint showed the session${session} filled or changed before the acceptance was recorded, so it was undone`;
        case 'session-gone':
          return `The session${session} was filled or cancelled in SharePoint, so the offer was withdrawn`;
        default:
          return `${who} withdrew the offer of the session${session}`;
      }
    default:
      return `${who} changed the offer of the session${session}`;
  }
}
