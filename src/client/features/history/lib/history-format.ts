import {
  dayOfWeek,
  formatClockTime,
  formatTime12,
  MONTH_NAMES,
  parseDateString,
  WEEKDAY_NAMES,
} from '@shared/calendar';
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
};

/** A change of the account's link to Microsoft, by what happened (the history's `event`). */
const MICROSOFT_EVENT: Record<string, string> = {
  invited: 'sent an invitation to sign in with Microsoft',
  linked: 'linked a Microsoft account',
  replaced: 'replaced the linked Microsoft account',
  unlinked: 'removed Microsoft sign-in',
};

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
 * (or "You" in one's own history), anybody else as "Staff (Sam)", an import as SharePoint.
 */
export function describeActor(entry: HistoryEntry, viewerId?: number): string {
  const name = entry.actorName ?? 'someone';
  if (entry.via === 'sharepoint')
    return entry.actorName ? `SharePoint import (run by ${name})` : 'SharePoint import';
  if (entry.actorId === null) return 'The system';
  if (viewerId !== undefined && entry.actorId === viewerId) return 'You';
  if (entry.entity === 'settings') return `Staff (${name})`;
  if (entry.actorId === entry.subjectUserId) return name;
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

/** What changed, field by field; secrets as "Password changed" with no values. */
export function fieldChanges(entry: HistoryEntry): FieldChange[] {
  const isDay = entry.entity === 'availability';
  const before = isDay ? dayFields(entry.before) : entry.before;
  const after = isDay ? dayFields(entry.after) : entry.after;
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
      return entry.after?.microsoftSignIn === true
        ? `${who} changed the Sign in with Microsoft settings`
        : `${who} changed the SharePoint settings`;
    case 'offer': {
      const session = typeof entry.after?.session === 'string' ? ` of ${entry.after.session}` : '';
      if (entry.action === 'create') return `${who} offered the session${session}`;
      const state = typeof entry.after?.state === 'string' ? entry.after.state : 'changed';
      return `${who} marked the offer${session} ${state}`;
    }
    case 'session':
      return `${who} created a session`;
  }
}
