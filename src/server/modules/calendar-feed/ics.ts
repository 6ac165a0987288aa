/**
 * iCalendar (RFC 5545) writing: just what a read-only feed of bookings needs. Pure functions, no I/O.
 */
import { tzOffset, tzScan } from '@date-fns/tz';
import { addDays, daysInMonth } from '../../../shared/calendar';

const CRLF = '\r\n';
/** Content lines are folded so no physical line is longer than this many octets (CRLF not counted). */
const MAX_LINE_OCTETS = 75;

/**
 * A TEXT value: backslash, semicolon and comma escaped, every kind of line break written as `\n`, and
 * control characters (which TEXT may not hold, tab apart) dropped.
 */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n|\r|\n|\u2028|\u2029/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\n/g, '\\n')
  );
}

/** A parameter value, quoted when it holds a character that would end it (RFC 5545 3.1). */
function paramValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a parameter value may hold no control character
  const clean = value.replace(/["\u0000-\u001f\u007f]/g, '');
  return /[;:,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * One content line folded at 75 octets: continuation lines start with a space. A UTF-8 sequence is
 * never split (RFC 5545 3.1 says it SHOULD NOT be), so lines may come out a few octets shorter.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    // every line after the first carries one octet of leading space
    const limit = out.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

/** `yyyy-MM-dd` → `yyyyMMdd` */
const basicDate = (date: string) => date.replaceAll('-', '');

/** A UTC instant as `yyyyMMddTHHmmssZ`. */
export function utcStamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/**
 * A booking's time as SharePoint gives it ("9:30", "09:30", "9.30", "2:15 pm") as `HHmm`, or null when
 * it is missing or not a time of day (the booking then becomes an all-day event).
 */
export function parseClockTime(value: string | null | undefined): string | null {
  const match = /^\s*(\d{1,2})[:.](\d{2})(?::\d{2})?\s*([ap]\.?m\.?)?\s*$/i.exec(value ?? '');
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const meridiem = match[3]?.toLowerCase().replaceAll('.', '');
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}${String(minute).padStart(2, '0')}`;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

function shortZoneName(timeZone: string, instant: Date): string | null {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  return part && /^[A-Za-z]{2,6}$/.test(part) ? part : null;
}

interface Onset {
  kind: 'STANDARD' | 'DAYLIGHT';
  /** local wall time of the change, in the offset before it: `yyyyMMddTHHmmss` */
  local: string;
  year: number;
  month: number;
  day: number;
  weekday: number;
  time: string;
  from: number;
  to: number;
  name: string | null;
}

const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * A VTIMEZONE for an IANA zone covering `from`..`to` (with a year either side), built from the
 * runtime's own zone data. Where the changes follow a yearly "nth (or last) weekday of a month" rule,
 * as in Europe, North America and Australia, the rule is written as an RRULE, the form Outlook knows
 * best; otherwise each change is listed on its own.
 */
export function vtimezone(timeZone: string, from: string, to: string): string[] {
  const start = new Date(`${addDays(from, -366)}T00:00:00Z`);
  const end = new Date(`${addDays(to, 366)}T00:00:00Z`);
  const changes = tzScan(timeZone, { start, end });
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  if (changes.length === 0) {
    const offset = formatOffset(tzOffset(timeZone, start));
    const name = shortZoneName(timeZone, start);
    lines.push(
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      ...(name ? [`TZNAME:${name}`] : []),
      'END:STANDARD',
      'END:VTIMEZONE',
    );
    return lines;
  }

  const onsets: Onset[] = changes.map((change) => {
    const fromOffset = change.offset - change.change;
    const wall = new Date(change.date.getTime() + fromOffset * 60_000);
    const local = utcStamp(wall).slice(0, 15);
    return {
      kind: change.change > 0 ? 'DAYLIGHT' : 'STANDARD',
      local,
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      weekday: wall.getUTCDay(),
      time: local.slice(9),
      from: fromOffset,
      to: change.offset,
      name: shortZoneName(timeZone, change.date),
    };
  });

  // Group by everything a yearly rule keeps fixed; a group becomes one RRULE if it is one per year,
  // in consecutive years, and always the same (or always the last) weekday of its month.
  const groups = new Map<string, Onset[]>();
  for (const onset of onsets) {
    const key = [onset.kind, onset.month, onset.weekday, onset.time, onset.from, onset.to, onset.name].join(
      '|',
    );
    groups.set(key, [...(groups.get(key) ?? []), onset]);
  }
  const components: { first: Onset; rule: string | null }[] = [];
  for (const group of groups.values()) {
    const consecutive = group.every((o, i) => i === 0 || o.year === group[i - 1]!.year + 1);
    const isLast = (o: Onset) => o.day + 7 > daysInMonth(o.year, o.month);
    const nth = (o: Onset) => Math.ceil(o.day / 7);
    const code = WEEKDAY_CODES[group[0]!.weekday];
    let rule: string | null = null;
    if (group.length > 1 && consecutive) {
      if (group.every(isLast)) rule = `FREQ=YEARLY;BYMONTH=${group[0]!.month};BYDAY=-1${code}`;
      else if (group.every((o) => nth(o) === nth(group[0]!)))
        rule = `FREQ=YEARLY;BYMONTH=${group[0]!.month};BYDAY=${nth(group[0]!)}${code}`;
    }
    if (rule) components.push({ first: group[0]!, rule });
    else for (const onset of group) components.push({ first: onset, rule: null });
  }
  components.sort((a, b) => (a.first.local < b.first.local ? -1 : 1));
  for (const { first, rule } of components) {
    lines.push(
      `BEGIN:${first.kind}`,
      `DTSTART:${first.local}`,
      ...(rule ? [`RRULE:${rule}`] : []),
      `TZOFFSETFROM:${formatOffset(first.from)}`,
      `TZOFFSETTO:${formatOffset(first.to)}`,
      ...(first.name ? [`TZNAME:${first.name}`] : []),
      `END:${first.kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

export interface IcsEvent {
  uid: string;
  /** `yyyy-MM-dd` */
  date: string;
  /** `HHmm` local times; no start: an all-day event; no end: the event ends when it starts */
  start: string | null;
  end: string | null;
  summary: string;
  location: string;
  description: string;
  lastModified: Date;
  sequence: number;
}

export interface IcsCalendar {
  name: string;
  timeZone: string;
  /** the range the feed covers, for the VTIMEZONE */
  from: string;
  to: string;
  events: IcsEvent[];
}

/** The whole calendar as text: CRLF line ends, folded lines, ending with CRLF. */
export function buildCalendar(calendar: IcsCalendar): string {
  const tzid = paramValue(calendar.timeZone);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Arts Facilitator Portal//Bookings feed//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    `X-WR-TIMEZONE:${escapeText(calendar.timeZone)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...vtimezone(calendar.timeZone, calendar.from, calendar.to),
  ];
  for (const event of calendar.events) {
    const stamp = utcStamp(event.lastModified);
    lines.push('BEGIN:VEVENT', `UID:${escapeText(event.uid)}`, `DTSTAMP:${stamp}`);
    if (event.start) {
      lines.push(`DTSTART;TZID=${tzid}:${basicDate(event.date)}T${event.start}00`);
      if (event.end && event.end > event.start) {
        lines.push(`DTEND;TZID=${tzid}:${basicDate(event.date)}T${event.end}00`);
      }
    } else {
      lines.push(
        `DTSTART;VALUE=DATE:${basicDate(event.date)}`,
        `DTEND;VALUE=DATE:${basicDate(addDays(event.date, 1))}`,
      );
    }
    lines.push(
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      'STATUS:CONFIRMED',
      'TRANSP:OPAQUE',
      `SEQUENCE:${event.sequence}`,
      `LAST-MODIFIED:${stamp}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
