/**
 * The personal calendar feed, read back with ical.js (a parser written elsewhere), so what is checked
 * is what Outlook, Google and Apple would get.
 */
import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, calendarFeeds } from '../../db/schema';
import { insertBooking } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildCalendar, escapeText, foldLine } from './ics';

// Pinned "now": the feed covers about three months back and a year ahead of it, both clock changes
// of 2026 included.
const NOW = new Date('2026-03-10T12:00:00Z');

let t: TestApp;
let ann: Awaited<ReturnType<TestApp['createUser']>>;
let ben: Awaited<ReturnType<TestApp['createUser']>>;
let annCookie: string;
let benCookie: string;
let staffCookie: string;

const HOSTILE_SCHOOL = 'St Mary\'s, "Upper"; School\\Annex\r\nLine two\n=cmd|calc';
const LONG_ADDRESS = `${'Très long chemin des écoles 🎨 '.repeat(8)}end`;

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

beforeAll(async () => {
  t = await createTestApp({ ORG_TIMEZONE: 'Europe/London' }, { now: () => NOW });
  ann = await t.createUser({
    username: 'ann@example.org',
    displayName: 'Ann Artist',
    password: 'ann-pass-1',
  });
  ben = await t.createUser({ username: 'ben@example.org', displayName: 'Ben', password: 'ben-pass-1' });
  annCookie = await t.login('ann@example.org', 'ann-pass-1');
  benCookie = await t.login('ben@example.org', 'ben-pass-1');
  staffCookie = await t.loginStaff();

  // Ann: either side of both clock changes, an all-day booking, hostile text, and out-of-range ones
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '101',
    date: '2026-03-27',
    startTime: '10:00',
    endTime: '12:30',
    program: 'Dance',
    schoolName: 'Hillside Primary',
    schoolAddress: '1 Hill Road, Leeds',
    schoolPostcode: 'LS1 1AA',
    timeSlot: 'Morning',
    deliveryType: 'Live',
    year: 'Year 4',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '102',
    date: '2026-03-30',
    startTime: '10:00',
    endTime: '12:30',
    program: 'Drama',
    schoolName: 'Valley Academy',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '103',
    date: '2026-10-23',
    startTime: '9:15',
    endTime: '3:00 pm',
    program: 'Music',
    schoolName: 'Oak School',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '104',
    date: '2026-10-26',
    startTime: '09:15',
    endTime: '15:00',
    program: 'Music',
    schoolName: 'Oak School',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '105',
    date: '2026-05-05',
    program: 'Art',
    schoolName: 'All Day School',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '106',
    date: '2026-06-01',
    startTime: '13:00',
    endTime: '14:00',
    program: 'Poetry; "slam", \\ night',
    schoolName: HOSTILE_SCHOOL,
    schoolAddress: LONG_ADDRESS,
    schoolPostcode: 'ZZ9 9ZZ',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '190',
    date: '2025-10-01',
    program: 'Too old',
    schoolName: 'Past',
  });
  await insertBooking(t.ctx.db, {
    userId: ann.id,
    sharePointId: '191',
    date: '2027-06-01',
    program: 'Too far',
    schoolName: 'Future',
  });
  // Ben's booking, an unlinked one, and Ann's private data that the feed must not carry
  await insertBooking(t.ctx.db, {
    userId: ben.id,
    sharePointId: '201',
    date: '2026-03-27',
    program: 'BEN-ONLY',
    schoolName: 'Ben School',
  });
  await insertBooking(t.ctx.db, {
    userId: null,
    sharePointId: '301',
    date: '2026-03-27',
    program: 'NOBODY',
    schoolName: 'Unlinked',
  });
  const day = await t.app.inject({
    method: 'POST',
    url: '/api/availability',
    headers: { cookie: annCookie },
    payload: { date: '2026-03-26', status: 'limited', notes: 'AVAILABILITY-NOTE-SECRET' },
  });
  expect(day.statusCode).toBe(200);
  const note = await t.app.inject({
    method: 'POST',
    url: '/api/staff/notes',
    headers: { cookie: staffCookie },
    payload: { facilitatorId: ann.id, date: '2026-03-27', note: 'STAFF-NOTE-SECRET', priority: 'urgent' },
  });
  expect(note.statusCode).toBe(201);
});
afterAll(() => t.close());

async function turnOn(cookie: string) {
  const response = await call('POST', '/api/calendar-feed', cookie);
  expect(response.statusCode).toBe(200);
  return response.json() as { enabled: boolean; path: string | null; createdAt: string | null };
}

/** Parses a feed with ical.js, its own VTIMEZONEs registered so times are read through them. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
  return { calendar, events, byUid: new Map(events.map((e) => [e.uid, e])) };
}

describe('turning the feed on, rotating and revoking', () => {
  it('needs a session to manage, and is off until turned on', async () => {
    for (const [method, url] of [
      ['GET', '/api/calendar-feed'],
      ['POST', '/api/calendar-feed'],
      ['POST', '/api/calendar-feed/rotate'],
      ['DELETE', '/api/calendar-feed'],
    ] as const) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
    const status = await call('GET', '/api/calendar-feed', benCookie);
    expect(status.json()).toEqual({ enabled: false, path: null, createdAt: null });
    expect((await call('POST', '/api/calendar-feed/rotate', benCookie)).statusCode).toBe(404);
  });

  it('gives an unguessable URL, the same one when asked again, and stores no token in the clear', async () => {
    const first = await turnOn(annCookie);
    expect(first.enabled).toBe(true);
    expect(first.path).toMatch(/^\/api\/calendar-feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await turnOn(annCookie)).toEqual(first);
    expect((await call('GET', '/api/calendar-feed', annCookie)).json()).toEqual(first);
    const token = /feed\/(.+)\.ics$/.exec(first.path!)![1]!;
    // 43 base64url characters carry 258 bits: at least 256 of them random
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const [row] = await t.ctx.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, ann.id));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves the feed without a session; a rotated URL stops working at once, and so does a revoked one', async () => {
    const { path: oldPath } = await turnOn(annCookie);
    expect((await call('GET', oldPath!)).statusCode).toBe(200);
    const rotated = await call('POST', '/api/calendar-feed/rotate', annCookie);
    expect(rotated.statusCode).toBe(200);
    const newPath = rotated.json().path as string;
    expect(newPath).not.toBe(oldPath);
    const old = await call('GET', oldPath!);
    expect(old.statusCode).toBe(404);
    expect((await call('GET', newPath)).statusCode).toBe(200);

    // unknown, rotated, revoked and malformed tokens all get the same answer
    const unknown = await call('GET', `/api/calendar-feed/${'A'.repeat(43)}.ics`);
    const malformed = await call('GET', '/api/calendar-feed/%27%3B--.ics');
    expect((await call('DELETE', '/api/calendar-feed', annCookie)).statusCode).toBe(204);
    const revoked = await call('GET', newPath);
    for (const response of [old, unknown, malformed, revoked]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found' });
    }
    expect((await call('GET', '/api/calendar-feed', annCookie)).json().enabled).toBe(false);
    // turning it on again makes a new URL: the revoked one stays dead
    const again = await turnOn(annCookie);
    expect(again.path).not.toBe(newPath);
    expect((await call('GET', newPath)).statusCode).toBe(404);
  });

  it("one user's rotation or revocation leaves another's feed alone", async () => {
    const annFeed = await turnOn(annCookie);
    const benFeed = await turnOn(benCookie);
    expect(benFeed.path).not.toBe(annFeed.path);
    await call('POST', '/api/calendar-feed/rotate', benCookie);
    await call('DELETE', '/api/calendar-feed', benCookie);
    expect((await call('GET', annFeed.path!)).statusCode).toBe(200);
  });

  it('is removed with its user', async () => {
    const carl = await t.createUser({ username: 'carl@example.org', password: 'carl-pass-1' });
    const feed = await turnOn(await t.login('carl@example.org', 'carl-pass-1'));
    expect((await call('DELETE', `/api/staff/users/${carl.id}`, staffCookie)).statusCode).toBe(204);
    expect((await call('GET', feed.path!)).statusCode).toBe(404);
  });
});

describe('the feed', () => {
  let text: string;
  let feed: ReturnType<typeof parse>;
  let headers: Record<string, unknown>;

  beforeAll(async () => {
    const { path } = await turnOn(annCookie);
    const response = await call('GET', path!);
    expect(response.statusCode).toBe(200);
    text = response.body;
    headers = response.headers;
    feed = parse(text);
  });

  it('is text/calendar in UTF-8, not cached by anyone on the way', () => {
    expect(headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("holds Ann's bookings in range and nothing else: no one else's, no availability, no notes", () => {
    expect([...feed.byUid.keys()].sort()).toEqual(
      ['101', '102', '103', '104', '105', '106'].map((id) => `booking-${id}@arts-facilitator-portal`),
    );
    for (const secret of [
      'BEN-ONLY',
      'Ben School',
      'NOBODY',
      'AVAILABILITY-NOTE-SECRET',
      'STAFF-NOTE-SECRET',
      'Too old',
      'Too far',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('describes a booking: summary, location with address and postcode, details', () => {
    const event = feed.byUid.get('booking-101@arts-facilitator-portal')!;
    expect(event.summary).toBe('Dance – Hillside Primary');
    expect(event.location).toBe('Hillside Primary, 1 Hill Road, Leeds, LS1 1AA');
    expect(event.description).toContain('Time slot: Morning');
    expect(event.description).toContain('Time: 10:00 AM – 12:30 PM');
    expect(event.description).toContain('Year group: Year 4');
    expect(event.description).toContain('Delivery: Live');
    expect(event.sequence).toBeGreaterThan(0);
    expect(event.component.getFirstPropertyValue('dtstamp')).toBeTruthy();
    expect(event.component.getFirstPropertyValue('last-modified')).toBeTruthy();
  });

  it('gives times in Europe/London with its VTIMEZONE, right on both sides of each clock change', () => {
    expect(feed.calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe(
      'Europe/London',
    );
    const utc = (id: string, end = false) => {
      const event = feed.byUid.get(`booking-${id}@arts-facilitator-portal`)!;
      const time = end ? event.endDate : event.startDate;
      expect(time.zone?.tzid).toBe('Europe/London');
      return time.toJSDate().toISOString();
    };
    // 10:00 GMT on Friday 27 March, 10:00 BST on Monday 30 March (clocks went forward on the 29th)
    expect(utc('101')).toBe('2026-03-27T10:00:00.000Z');
    expect(utc('101', true)).toBe('2026-03-27T12:30:00.000Z');
    expect(utc('102')).toBe('2026-03-30T09:00:00.000Z');
    // back again on 25 October: 9:15 BST on the 23rd, 09:15 GMT on the 26th; "3:00 pm" is read too
    expect(utc('103')).toBe('2026-10-23T08:15:00.000Z');
    expect(utc('103', true)).toBe('2026-10-23T14:00:00.000Z');
    expect(utc('104')).toBe('2026-10-26T09:15:00.000Z');
  });

  it('makes a booking without times an all-day event', () => {
    const event = feed.byUid.get('booking-105@arts-facilitator-portal')!;
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe('2026-05-05');
    expect(event.endDate.toString()).toBe('2026-05-06');
  });

  it('escapes hostile text so it comes back exactly as stored (line breaks as newlines)', () => {
    const event = feed.byUid.get('booking-106@arts-facilitator-portal')!;
    expect(event.summary).toBe(`Poetry; "slam", \\ night – ${HOSTILE_SCHOOL.replace('\r\n', '\n')}`);
    expect(event.location).toBe(`${HOSTILE_SCHOOL.replace('\r\n', '\n')}, ${LONG_ADDRESS}, ZZ9 9ZZ`);
    // nothing leaked into a property of its own
    expect(feed.calendar.getAllSubcomponents('vevent')).toHaveLength(6);
    expect(event.component.getAllProperties().map((p) => p.name)).not.toContain('cmd|calc');
  });

  it('ends every line with CRLF and folds lines at 75 octets without splitting a character', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.split('\r\n');
    expect(lines.some((line) => line.includes('\n') || line.includes('\r'))).toBe(false);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(0);
    expect(text).not.toContain('\uFFFD');
  });

  it('keeps UIDs when fetched again; a changed booking keeps its UID with a higher SEQUENCE', async () => {
    const { path } = await turnOn(annCookie);
    const before = feed.byUid.get('booking-102@arts-facilitator-portal')!.sequence;
    await t.ctx.db
      .update(bookings)
      .set({ startTime: '11:00', updatedAt: sql`now() + interval '1 minute'` })
      .where(eq(bookings.sharePointId, '102'));
    const again = parse((await call('GET', path!)).body);
    expect([...again.byUid.keys()].sort()).toEqual([...feed.byUid.keys()].sort());
    const changed = again.byUid.get('booking-102@arts-facilitator-portal')!;
    expect(changed.sequence).toBeGreaterThan(before);
    expect(changed.startDate.toJSDate().toISOString()).toBe('2026-03-30T10:00:00.000Z');
  });

  it('answers 304 to a calendar app that already has this version', async () => {
    const { path } = await turnOn(annCookie);
    const first = await call('GET', path!);
    const second = await call('GET', path!, undefined, { 'if-none-match': String(first.headers.etag) });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });
});

describe('ics writing', () => {
  it('escapes backslash, semicolon, comma and line breaks, and drops control characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\rg\u0007h')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng' + 'h');
  });

  it('folds on character boundaries', () => {
    const folded = foldLine(`DESCRIPTION:${'é'.repeat(100)}`);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replaceAll('\r\n ', '')).toBe(`DESCRIPTION:${'é'.repeat(100)}`);
  });

  it.each([
    // zone, local day and time, the instant it is
    ['America/New_York', '2026-03-06', '0900', '2026-03-06T14:00:00.000Z'],
    ['America/New_York', '2026-03-09', '0900', '2026-03-09T13:00:00.000Z'],
    ['America/New_York', '2026-11-02', '0900', '2026-11-02T14:00:00.000Z'],
    ['Australia/Sydney', '2026-04-03', '0900', '2026-04-02T22:00:00.000Z'],
    ['Australia/Sydney', '2026-04-06', '0900', '2026-04-05T23:00:00.000Z'],
    ['Asia/Tokyo', '2026-07-01', '0900', '2026-07-01T00:00:00.000Z'],
    ['Europe/London', '2027-03-29', '0900', '2027-03-29T08:00:00.000Z'],
  ])(
    'writes a VTIMEZONE for %s that ical.js reads to the right instant (%s %s)',
    (zone, date, start, instant) => {
      const text = buildCalendar({
        name: 'Test',
        timeZone: zone,
        from: '2026-01-01',
        to: '2026-12-31',
        events: [
          {
            uid: 'x@test',
            date,
            start,
            end: null,
            summary: 's',
            location: '',
            description: '',
            lastModified: NOW,
            sequence: 0,
          },
        ],
      });
      const { events } = parse(text);
      expect(events[0]!.startDate.toJSDate().toISOString()).toBe(instant);
    },
  );
});
