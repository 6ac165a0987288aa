import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffNotes, users } from '../../db/schema';
import { insertBooking } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
let fran: Awaited<ReturnType<TestApp['createUser']>>;
let sam: Awaited<ReturnType<TestApp['createUser']>>;
let staffId: number;

const SECRET_TEXT = 'Confidential: prefers not to work with Year 9 classes';

beforeAll(async () => {
  t = await createTestApp();
  fran = await t.createUser({ username: 'fran@example.org', displayName: 'Fran', password: 'fran-pass-1' });
  sam = await t.createUser({ username: 'sam@example.org', displayName: 'Sam' });
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('fran@example.org', 'fran-pass-1');
  const [staff] = await t.ctx.db.select().from(users).where(eq(users.role, 'staff'));
  staffId = staff!.id;
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const countNotes = async () => (await t.ctx.db.select().from(staffNotes)).length;

async function makeNote(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/staff/notes', staffCookie, {
    facilitatorId: fran.id,
    date: '2026-03-04',
    note: 'Call about next term',
    priority: 'normal',
    ...overrides,
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('authorisation', () => {
  const endpoints: [Method, string, unknown?][] = [
    ['GET', '/api/staff/notes?date=2026-03-04&view=week'],
    ['POST', '/api/staff/notes', { facilitatorId: 1, date: '2026-03-04', note: 'x', priority: 'normal' }],
    ['PUT', '/api/staff/notes/1', { note: 'x', priority: 'normal' }],
    ['DELETE', '/api/staff/notes/1'],
  ];

  it.each(endpoints)('%s %s: anonymous 401, facilitator 403, nothing changed', async (method, url, body) => {
    const note = await makeNote();
    const target = url.replace('/1', `/${note.id}`);
    const payload = body && typeof body === 'object' ? { ...body, facilitatorId: fran.id } : body;
    const before = await countNotes();

    const anonymous = await call(method, target, undefined, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBeTruthy();

    const facilitator = await call(method, target, facilitatorCookie, payload);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json().message).toBe('This is for staff only');
    expect(facilitator.body).not.toContain('Call about next term');

    expect(await countNotes()).toBe(before);
    const [row] = await t.ctx.db.select().from(staffNotes).where(eq(staffNotes.id, note.id));
    expect(row?.note).toBe('Call about next term');
  });
});

describe('POST /api/staff/notes', () => {
  it('creates a note (201) with the staff user as author; the ISO date-time keeps its day', async () => {
    const response = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: fran.id,
      date: '2026-03-05T00:00:00.000Z',
      note: '  Needs DBS renewal  ',
      priority: 'urgent',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      facilitatorId: fran.id,
      date: '2026-03-05',
      note: 'Needs DBS renewal',
      priority: 'urgent',
      createdBy: staffId,
    });
    expect(Object.keys(body).sort()).toEqual(
      ['createdAt', 'createdBy', 'date', 'facilitatorId', 'id', 'note', 'priority', 'updatedAt'].sort(),
    );
    expect(new Date(body.createdAt).toString()).not.toBe('Invalid Date');
  });

  it('defaults the priority to normal', async () => {
    const response = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: fran.id,
      date: '2026-03-06',
      note: 'No priority given',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().priority).toBe('normal');
  });

  it.each([
    [{ note: '' }, 'Note cannot be blank'],
    [{ note: '   \n\t ' }, 'Note cannot be blank'],
    [{ note: 'x'.repeat(5001) }, 'Note must be at most 5000 characters'],
    [{ priority: 'critical' }, 'Priority must be normal, high or urgent'],
    [{ priority: '' }, 'Priority must be normal, high or urgent'],
    [{ date: 'tomorrow' }, 'Date must be in yyyy-MM-dd format'],
    [{ date: '2026-02-30' }, 'Date is not a real calendar day'],
    [{ facilitatorId: 'abc' }, 'facilitatorId'],
    [{ facilitatorId: -1 }, 'facilitatorId'],
    [{ note: undefined }, 'note'],
  ])('refuses %j with 400 and a message, creating nothing', async (override, expected) => {
    const before = await countNotes();
    const response = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: fran.id,
      date: '2026-03-04',
      note: 'valid',
      priority: 'high',
      ...override,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    expect(await countNotes()).toBe(before);
  });

  it('refuses an unknown facilitator with 404 "Facilitator not found"', async () => {
    const before = await countNotes();
    const response = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: 999_999,
      date: '2026-03-04',
      note: 'Nobody',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Facilitator not found' });
    expect(await countNotes()).toBe(before);
  });

  it('refuses a note about a staff account with 400', async () => {
    const response = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: staffId,
      date: '2026-03-04',
      note: 'About staff',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/only be kept about facilitators/);
  });
});

describe('PUT /api/staff/notes/:id', () => {
  it('edits text and priority (200) and moves the updated time', async () => {
    const note = await makeNote({ note: 'Before' });
    const response = await call('PUT', `/api/staff/notes/${note.id}`, staffCookie, {
      note: 'After',
      priority: 'high',
      date: '2026-03-04T00:00:00.000Z',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: note.id, note: 'After', priority: 'high', date: '2026-03-04' });
    expect(body.createdAt).toBe(note.createdAt);
    expect(new Date(body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(note.updatedAt).getTime());
  });

  it.each([
    [{ note: '  ', priority: 'normal' }, 'Note cannot be blank'],
    [{ note: 'ok', priority: 'low' }, 'Priority must be normal, high or urgent'],
    [{ priority: 'normal' }, 'note'],
  ])('refuses %j with 400 and keeps the note', async (payload, expected) => {
    const note = await makeNote({ note: 'Keep me' });
    const response = await call('PUT', `/api/staff/notes/${note.id}`, staffCookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    const [row] = await t.ctx.db.select().from(staffNotes).where(eq(staffNotes.id, note.id));
    expect(row).toMatchObject({ note: 'Keep me', priority: 'normal' });
  });

  it('answers 404 for an unknown note and 400 for a malformed id', async () => {
    const missing = await call('PUT', '/api/staff/notes/999999', staffCookie, {
      note: 'x',
      priority: 'normal',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Note not found' });
    const bad = await call('PUT', '/api/staff/notes/abc', staffCookie, { note: 'x', priority: 'normal' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('DELETE /api/staff/notes/:id', () => {
  it('deletes (204, empty body) and then answers 404', async () => {
    const note = await makeNote();
    const response = await call('DELETE', `/api/staff/notes/${note.id}`, staffCookie);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const again = await call('DELETE', `/api/staff/notes/${note.id}`, staffCookie);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Note not found' });
  });

  it('refuses a malformed id with 400', async () => {
    expect((await call('DELETE', '/api/staff/notes/0', staffCookie)).statusCode).toBe(400);
    expect((await call('DELETE', '/api/staff/notes/1.5', staffCookie)).statusCode).toBe(400);
  });
});

describe('GET /api/staff/notes', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    await t.ctx.db.delete(staffNotes);
    ids = {};
    // Week of Monday 2 March 2026 is 2-6 March; the month of March has weekdays 2-31.
    for (const [key, date, who] of [
      ['feb27', '2026-02-27', fran.id],
      ['mar02', '2026-03-02', fran.id],
      ['mar06', '2026-03-06', sam.id],
      ['mar09', '2026-03-09', fran.id],
      ['mar31', '2026-03-31', sam.id],
      ['apr01', '2026-04-01', fran.id],
    ] as const) {
      const note = await makeNote({ date, facilitatorId: who, note: `note ${key}` });
      ids[key] = note.id;
    }
  });

  const idsOf = async (query: string) => {
    const response = await call('GET', `/api/staff/notes?${query}`, staffCookie);
    expect(response.statusCode).toBe(200);
    return (response.json() as { id: number }[]).map((n) => n.id);
  };

  it('week view: Monday to Friday of the week containing the date, every facilitator', async () => {
    expect(await idsOf('date=2026-03-04&view=week')).toEqual([ids.mar02, ids.mar06]);
    // A Saturday belongs to the week before it.
    expect(await idsOf('date=2026-03-07&view=week')).toEqual([ids.mar02, ids.mar06]);
    expect(await idsOf('date=2026-03-09&view=week')).toEqual([ids.mar09]);
  });

  it('month view (the default): the weekdays of the month', async () => {
    expect(await idsOf('date=2026-03-15&view=month')).toEqual([ids.mar02, ids.mar06, ids.mar09, ids.mar31]);
    expect(await idsOf('date=2026-03-15')).toEqual([ids.mar02, ids.mar06, ids.mar09, ids.mar31]);
    expect(await idsOf('date=2026-04-01T00:00:00.000Z&view=month')).toEqual([ids.apr01]);
  });

  it('fortnight view: the week containing the date and the next, across a month end', async () => {
    expect(await idsOf('date=2026-03-25&view=fortnight')).toEqual([ids.mar31, ids.apr01]);
    expect(await idsOf('date=2026-03-02&view=fortnight')).toEqual([ids.mar02, ids.mar06, ids.mar09]);
  });

  it.each([
    ['view=week', 'date'],
    ['date=2026-03-04&view=year', 'View must be week, fortnight or month'],
    ['date=March&view=week', 'Date must be in yyyy-MM-dd format'],
  ])('refuses %s with 400', async (query, expected) => {
    const response = await call('GET', `/api/staff/notes?${query}`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });
});

describe('notes never reach facilitators', () => {
  it('no facilitator response carries note text', async () => {
    await makeNote({ facilitatorId: fran.id, date: '2026-03-04', note: SECRET_TEXT, priority: 'urgent' });
    // Give Fran a day and a booking on the same date so the endpoints have rows to answer with.
    const saved = await call('POST', '/api/availability', facilitatorCookie, {
      date: '2026-03-04',
      status: 'limited',
      notes: 'my own notes',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(SECRET_TEXT);
    await insertBooking(t.ctx.db, {
      userId: fran.id,
      date: '2026-03-04',
      title: 'Drama workshop',
      sharePointId: 'sp-notes-leak-1',
    });

    for (const url of [
      '/api/user',
      '/api/availability?from=2026-03-01&to=2026-03-31',
      '/api/bookings?from=2026-03-01&to=2026-03-31',
      `/api/availability?from=2026-03-01&to=2026-03-31&userId=${fran.id}`,
    ]) {
      const response = await call('GET', url, facilitatorCookie);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain(SECRET_TEXT);
      expect(response.body, url).not.toMatch(/"priority"|"facilitatorId"|"createdBy"/);
    }
    const availability = await call(
      'GET',
      '/api/availability?from=2026-03-01&to=2026-03-31',
      facilitatorCookie,
    );
    expect(availability.json()).toEqual([
      expect.objectContaining({ date: '2026-03-04', notes: 'my own notes' }),
    ]);
    const own = await call('GET', '/api/bookings?from=2026-03-01&to=2026-03-31', facilitatorCookie);
    expect(own.json()).toEqual([expect.objectContaining({ title: 'Drama workshop' })]);

    // Every staff-notes path refuses the facilitator without echoing anything.
    for (const url of [
      '/api/staff/notes?date=2026-03-04&view=month',
      '/api/staff/notes?date=2026-03-04&view=week',
    ]) {
      const response = await call('GET', url, facilitatorCookie);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain(SECRET_TEXT);
    }
  });
});
