import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeHistory, safeguardingPolicyVersions, safeguardingRecords } from '../../db/schema';
import { insertBookings } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { safeguardingStatuses } from './service';

/*
 * The status calculation through the API: records saved by staff, then read back on chosen days
 * (`date=`), so every boundary is decided by the same code the screens, exports and reminders use.
 */
let t: TestApp;
let staffCookie: string;
let franCookie: string;
let fran: Awaited<ReturnType<TestApp['createUser']>>;
let sam: Awaited<ReturnType<TestApp['createUser']>>;
// The app's clock: moved by tests that ask for "today". A policy applies from the day it is saved
// on, so the clock starts before every day these tests judge and each saved policy decides them.
const START = '2022-06-15T12:00:00Z';
let now = new Date(START);

const CERTIFICATE = '001234567890';

beforeAll(async () => {
  // Auckland is 12-13 hours ahead of UTC: "today" differs from the UTC day for half of every day
  t = await createTestApp({ ORG_TIMEZONE: 'Pacific/Auckland' }, { now: () => now });
  fran = await t.createUser({ username: 'fran@example.org', displayName: 'Fran', password: 'fran-pass-1' });
  sam = await t.createUser({ username: 'sam@example.org', displayName: 'Sam', password: 'sam-pass-1' });
  staffCookie = await t.loginStaff();
  franCookie = await t.login('fran@example.org', 'fran-pass-1');
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const policyBody = (policy: Partial<Record<string, unknown>> = {}) => ({
  dbsMonths: 36,
  updateServiceMonths: 12,
  warningDays: 30,
  checkTypes: [],
  ...policy,
});

async function setPolicy(policy: Partial<Record<string, unknown>> = {}) {
  const response = await call('PUT', '/api/staff/safeguarding/policy', staffCookie, policyBody(policy));
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Runs `steps` with the app's clock at `instant`, then puts it back. Sessions keep the app's time, so
 * staff sign in again at each move.
 */
async function atClock<T>(instant: string, steps: () => Promise<T>): Promise<T> {
  const before = now;
  now = new Date(instant);
  staffCookie = await t.loginStaff();
  try {
    return await steps();
  } finally {
    now = before;
    staffCookie = await t.loginStaff();
  }
}

/**
 * A check is recorded after it was made, and no date on a record may be after the day it is saved:
 * records are saved with the clock past every day these tests use, while the clock that judges them
 * stays where the test has it.
 */
const RECORDED_AT = '2030-01-01T12:00:00Z';

function setRecords(userId: number, body: { dbs: unknown; checks?: unknown[] }, at = RECORDED_AT) {
  return atClock(at, () => saveRecords(userId, body));
}

async function saveRecords(userId: number, body: { dbs: unknown; checks?: unknown[] }) {
  const current = await call('GET', `/api/staff/users/${userId}/safeguarding`, staffCookie);
  const response = await call('PUT', `/api/staff/users/${userId}/safeguarding`, staffCookie, {
    checks: [],
    ...body,
    version: current.json().version,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const dbs = (overrides: Record<string, unknown> = {}) => ({
  certificateNumber: CERTIFICATE,
  issueDate: '2024-02-29',
  enhancedWithBarredList: true,
  onUpdateService: false,
  statusCheckedOn: null,
  checkedBy: 'Priya (office)',
  ...overrides,
});

async function statusOn(date: string, userId = fran.id) {
  const response = await call('GET', `/api/staff/safeguarding?date=${date}`, staffCookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().people.find((p: { userId: number }) => p.userId === userId);
}
const stateOn = async (date: string, userId = fran.id) => (await statusOn(date, userId)).status.state;

describe('DBS without the Update Service (36 months from the issue date)', () => {
  beforeAll(async () => {
    await setPolicy();
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2024-02-29' }) });
  });

  it('29 February 2024 + 36 months: the anniversary is 28 February 2027, so it counts until the 27th', async () => {
    const status = await statusOn('2027-02-27');
    expect(status.status.checks[0]).toMatchObject({ name: 'DBS', validUntil: '2027-02-27' });
    expect(status.status.state).toBe('expiring'); // the day before expiry: still counts, warned
    expect(await stateOn('2027-02-28')).toBe('expired'); // the day of expiry
    expect(await stateOn('2027-03-01')).toBe('expired'); // the day after
    expect((await statusOn('2027-02-28')).status.reasons).toEqual([
      'DBS check expired: it counted until 27 February 2027',
    ]);
  });

  it('warns from 30 days before the day it stops counting, not a day earlier', async () => {
    // stops counting on 28 Feb 2027; 30 days before that is 29 Jan 2027
    expect(await stateOn('2027-01-28')).toBe('valid');
    expect(await stateOn('2027-01-29')).toBe('expiring');
    expect((await statusOn('2027-01-29')).status.reasons).toEqual([
      'DBS check due soon: valid until 27 February 2027',
    ]);
  });

  it('a certificate issued after the day asked about does not count on that day', async () => {
    expect(await stateOn('2024-02-28')).toBe('missing');
    expect(await stateOn('2024-02-29')).toBe('valid');
  });

  it('across month ends: 31 January + 1 month counts until 27 February, 31 March + 11 months until 28 Feb in a leap year', async () => {
    await setPolicy({ dbsMonths: 1 });
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2023-01-31' }) });
    expect((await statusOn('2023-02-27')).status.checks[0].validUntil).toBe('2023-02-27');
    expect(await stateOn('2023-02-28')).toBe('expired');

    await setPolicy({ dbsMonths: 11 });
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2023-03-31' }) });
    expect((await statusOn('2024-02-28')).status.checks[0].validUntil).toBe('2024-02-28');
    expect(await stateOn('2024-02-28')).toBe('expiring');
    expect(await stateOn('2024-02-29')).toBe('expired');

    await setPolicy({ dbsMonths: 12 });
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2023-12-31' }) });
    expect((await statusOn('2024-12-30')).status.checks[0].validUntil).toBe('2024-12-30');
    expect(await stateOn('2024-12-31')).toBe('expired');
  });

  it('a policy change takes effect at once: 36 months valid, 24 months expired, warning days 0 means no warning', async () => {
    await setPolicy({ dbsMonths: 36 });
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2024-02-29' }) });
    expect(await stateOn('2026-06-01')).toBe('valid');
    await setPolicy({ dbsMonths: 24 });
    expect(await stateOn('2026-06-01')).toBe('expired');
    expect((await statusOn('2026-06-01')).status.checks[0].validUntil).toBe('2026-02-27');
    await setPolicy({ dbsMonths: 36, warningDays: 0 });
    expect(await stateOn('2027-02-27')).toBe('valid');
    expect(await stateOn('2027-02-28')).toBe('expired');
    await setPolicy();
  });
});

describe('DBS on the Update Service (12 months from the last status check)', () => {
  it('counts from the status check, and from the issue date before one was made', async () => {
    await setPolicy();
    await setRecords(fran.id, {
      dbs: dbs({ issueDate: '2024-02-29', onUpdateService: true, statusCheckedOn: null }),
    });
    // 29 Feb 2024 + 12 months is 28 Feb 2025: counts until the 27th
    expect(await stateOn('2025-02-27')).toBe('expiring');
    expect(await stateOn('2025-02-28')).toBe('expired');

    await setRecords(fran.id, {
      dbs: dbs({ issueDate: '2020-01-10', onUpdateService: true, statusCheckedOn: '2026-05-15' }),
    });
    expect((await statusOn('2026-06-01')).status.checks[0].validUntil).toBe('2027-05-14');
    expect(await stateOn('2027-05-14')).toBe('expiring');
    expect(await stateOn('2027-05-15')).toBe('expired');
    // before the status check was made, only the certificate's own date spoke for it (long expired)
    expect(await stateOn('2026-05-14')).toBe('expired');
  });

  it('a change of the Update Service months moves the end', async () => {
    await setPolicy({ updateServiceMonths: 6 });
    expect((await statusOn('2026-06-01')).status.checks[0].validUntil).toBe('2026-11-14');
    await setPolicy();
  });
});

describe('what does not count', () => {
  it('a DBS check that is not enhanced with the barred list counts as missing, and says so', async () => {
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2026-01-10', enhancedWithBarredList: false }) });
    const status = await statusOn('2026-06-01');
    expect(status.status.state).toBe('missing');
    expect(status.status.reasons).toEqual([
      'DBS check is not an enhanced check with the barred list, so it does not count',
    ]);
  });

  it('no records at all: missing', async () => {
    const status = await statusOn('2026-06-01', sam.id);
    expect(status.status.state).toBe('missing');
    expect(status.certificate).toBeNull();
    expect(status.status.reasons).toEqual(['No DBS check recorded']);
  });
});

describe('other checks the organisation defines', () => {
  it('each is required, counts until its date, and the worst check decides', async () => {
    await setPolicy({ checkTypes: ['Insurance', 'First aid'] });
    await setRecords(fran.id, {
      dbs: dbs({ issueDate: '2026-01-10' }),
      checks: [{ type: 'insurance', validUntil: '2026-12-31' }],
    });
    const june = await statusOn('2026-06-01');
    expect(june.status.state).toBe('missing');
    expect(june.status.reasons).toEqual(['No First aid recorded']);

    await setRecords(fran.id, {
      dbs: dbs({ issueDate: '2026-01-10' }),
      checks: [
        { type: 'Insurance', validUntil: '2026-12-31' },
        { type: 'First aid', validUntil: '2027-06-30' },
      ],
    });
    expect(await stateOn('2026-12-01')).toBe('valid');
    expect(await stateOn('2026-12-02')).toBe('expiring');
    expect(await stateOn('2026-12-31')).toBe('expiring');
    const january = await statusOn('2027-01-01');
    expect(january.status.state).toBe('expired');
    expect(january.status.reasons).toEqual(['Insurance expired: it counted until 31 December 2026']);
    // stored under the policy's spelling
    const record = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    expect(record.json().checks.map((c: { type: string }) => c.type)).toEqual(['Insurance', 'First aid']);
  });

  it('a check of a type the policy does not have is refused, and nothing changes', async () => {
    const before = await t.ctx.db.select().from(safeguardingRecords);
    const current = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    const response = await atClock(RECORDED_AT, () =>
      call('PUT', `/api/staff/users/${fran.id}/safeguarding`, staffCookie, {
        dbs: dbs(),
        checks: [{ type: 'Driving licence', validUntil: '2027-01-01' }],
        version: current.json().version,
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.checks[0]).toMatch(/Driving licence/);
    expect(await t.ctx.db.select().from(safeguardingRecords)).toEqual(before);
    await setPolicy();
  });
});

describe('today is the organisation’s day', () => {
  it('at 12:00 UTC on 27 February 2027 it is already the 28th in Auckland: expired', async () => {
    await setPolicy();
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2024-02-29' }) });
    // sessions keep the app's time, so each jump in the clock signs in again
    const ownOn = async (instant: string) => {
      now = new Date(instant);
      const cookie = await t.login('fran@example.org', 'fran-pass-1');
      return (await call('GET', '/api/safeguarding', cookie)).json();
    };
    // 23:00 on the 27th in Auckland (NZDT, +13)
    expect(await ownOn('2027-02-27T10:00:00Z')).toMatchObject({
      date: '2027-02-27',
      status: { state: 'expiring' },
    });
    // 01:00 on the 28th in Auckland, still the 27th in UTC
    expect(await ownOn('2027-02-27T12:00:00Z')).toMatchObject({
      date: '2027-02-28',
      status: { state: 'expired' },
    });
    now = new Date(START);
    staffCookie = await t.loginStaff();
    franCookie = await t.login('fran@example.org', 'fran-pass-1');
  });
});

describe('the reusable service', () => {
  it('gives every asked-for account a status on a day, missing without records, unknown ids left out', async () => {
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2026-01-10' }) });
    const statuses = await safeguardingStatuses(t.ctx.db, [fran.id, sam.id, 999_999], '2026-06-01');
    expect([...statuses.keys()].sort()).toEqual([fran.id, sam.id].sort());
    expect(statuses.get(fran.id)!.state).toBe('valid');
    expect(statuses.get(sam.id)!.state).toBe('missing');
  });
});

describe('personal data and edits', () => {
  it('the certificate number is whole for staff and the person, masked in lists and the history', async () => {
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2026-01-10' }) });
    const staffView = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    expect(staffView.json().dbs.certificateNumber).toBe(CERTIFICATE);
    const own = await call('GET', '/api/safeguarding', franCookie);
    expect(own.json().dbs.certificateNumber).toBe(CERTIFICATE);

    const list = await call('GET', '/api/staff/safeguarding', staffCookie);
    expect(list.body).not.toContain(CERTIFICATE);
    expect(list.json().people.find((p: { userId: number }) => p.userId === fran.id).certificate).toBe(
      '********7890',
    );

    const history = await t.ctx.db
      .select()
      .from(changeHistory)
      .where(eq(changeHistory.subjectUserId, fran.id));
    expect(history.length).toBeGreaterThan(0);
    expect(JSON.stringify(history)).not.toContain(CERTIFICATE);
    expect(JSON.stringify(history)).toContain('********7890');
    const ownHistory = await call('GET', `/api/history?from=2026-01-01&to=2026-12-31`, franCookie);
    expect(ownHistory.body).not.toContain(CERTIFICATE);
  });

  it('a facilitator reads only their own records; another’s or the list are refused', async () => {
    expect((await call('GET', `/api/staff/users/${fran.id}/safeguarding`, franCookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/staff/safeguarding', franCookie)).statusCode).toBe(403);
    const samCookie = await t.login('sam@example.org', 'sam-pass-1');
    const own = await call('GET', '/api/safeguarding', samCookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ userId: sam.id, dbs: null });
    expect(own.body).not.toContain(CERTIFICATE);
  });

  it('an edit made on an older version is refused (409) and changes nothing', async () => {
    const current = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    const stale = current.json().version - 1;
    const response = await call('PUT', `/api/staff/users/${fran.id}/safeguarding`, staffCookie, {
      dbs: null,
      checks: [],
      version: stale,
    });
    expect(response.statusCode).toBe(409);
    const after = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    expect(after.json().dbs.certificateNumber).toBe(CERTIFICATE);
  });

  it('refuses a bad certificate number, a status check without the Update Service, and staff accounts', async () => {
    const version = (await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie)).json()
      .version;
    const bad = await call('PUT', `/api/staff/users/${fran.id}/safeguarding`, staffCookie, {
      dbs: dbs({ certificateNumber: '12345' }),
      checks: [],
      version,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors['dbs.certificateNumber']).toEqual(['Certificate number must be 12 digits']);
    const noService = await call('PUT', `/api/staff/users/${fran.id}/safeguarding`, staffCookie, {
      dbs: dbs({ statusCheckedOn: '2026-03-01', issueDate: '2026-01-10' }),
      checks: [],
      version,
    });
    expect(noService.statusCode).toBe(400);
    const staffId = (await call('GET', '/api/user', staffCookie)).json().id;
    const staffRecord = await call('GET', `/api/staff/users/${staffId}/safeguarding`, staffCookie);
    expect(staffRecord.statusCode).toBe(400);
  });
});

describe('input a reader would be misled by', () => {
  async function refused(body: { dbs: unknown; checks?: unknown[] }, field: string, message: RegExp) {
    const before = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    const response = await call('PUT', `/api/staff/users/${fran.id}/safeguarding`, staffCookie, {
      checks: [],
      ...body,
      version: before.json().version,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fieldErrors[field], response.body).toEqual([expect.stringMatching(message)]);
    const after = await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staffCookie);
    expect(after.json()).toEqual(before.json());
  }

  it('refuses a status check or an issue date after today (the organisation’s day)', async () => {
    // 12:00 UTC on 15 June is already the 16th in Auckland: the 16th is today, the 17th is not
    await atClock('2026-06-15T12:00:00Z', async () => {
      await refused(
        { dbs: dbs({ issueDate: '2025-06-01', onUpdateService: true, statusCheckedOn: '2026-06-17' }) },
        'dbs.statusCheckedOn',
        /status check cannot be in the future/,
      );
      await refused({ dbs: dbs({ issueDate: '2026-06-17' }) }, 'dbs.issueDate', /cannot be in the future/);
      await saveRecords(fran.id, {
        dbs: dbs({ issueDate: '2026-06-16', onUpdateService: true, statusCheckedOn: '2026-06-16' }),
      });
    });
  });

  it('refuses a "Checked by" of invisible characters only, or with text-direction characters', async () => {
    await refused(
      { dbs: dbs({ checkedBy: '\u200b\u200c\u2060\ufeff' }) },
      'dbs.checkedBy',
      /Say who checked/,
    );
    await refused({ dbs: dbs({ checkedBy: 'Priya \u202eeciffo' }) }, 'dbs.checkedBy', /text-direction/);
  });

  it('refuses check-type names with bidirectional controls, in the policy and in records', async () => {
    for (const name of ['First aid\u202e', '\u2067Insurance\u2069', 'First\u200baid', '\u200e']) {
      const response = await call('PUT', '/api/staff/safeguarding/policy', staffCookie, {
        dbsMonths: 36,
        updateServiceMonths: 12,
        warningDays: 30,
        checkTypes: [name],
      });
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(response.json().fieldErrors['checkTypes.0'], response.body).toEqual([
        expect.stringMatching(/invisible|needs a name/),
      ]);
    }
    await refused(
      { dbs: dbs(), checks: [{ type: 'Insurance\u202e', validUntil: '2027-01-01' }] },
      'checks.0.type',
      /text-direction/,
    );
  });
});

describe('the record for schools', () => {
  it('lists who was sent, their checks on each session day, the certificate masked, cells quoted and neutralised', async () => {
    await setPolicy();
    // the record for schools reads the records as they stood on each session's day: saved before them
    await setRecords(
      fran.id,
      { dbs: dbs({ issueDate: '2024-02-29', checkedBy: '=HYPERLINK("x")' }) },
      '2026-09-01T12:00:00Z',
    );
    await insertBookings(t.ctx.db, [
      {
        sharePointId: 'sg-1',
        userId: fran.id,
        date: '2027-02-27',
        schoolName: 'Hill School',
        title: 'Drama',
      },
      {
        sharePointId: 'sg-2',
        userId: fran.id,
        date: '2027-03-01',
        schoolName: 'Hill School',
        title: 'Drama',
      },
      { sharePointId: 'sg-3', userId: sam.id, date: '2027-03-01', schoolName: 'Vale Academy', title: 'Art' },
      { sharePointId: 'sg-4', userId: null, date: '2027-03-01', schoolName: 'Hill School', title: 'Open' },
    ]);
    const response = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2027-02-01&to=2027-03-31&school=hill%20school',
      staffCookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.body).not.toContain(CERTIFICATE);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^"Date","School","Session","Facilitator","DBS certificate"/);
    expect(lines[1]).toContain('"2027-02-27","Hill School","Drama","Fran","********7890"');
    expect(lines[1]).toContain('"Expiring soon"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toContain('"2027-03-01","Hill School"');
    expect(lines[2]).toContain('"Expired"');

    const all = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2027-03-01&to=2027-03-01',
      staffCookie,
    );
    const allLines = all.body.trim().split('\r\n');
    expect(allLines).toHaveLength(3);
    expect(allLines[2]).toContain('"Sam"');
    expect(allLines[2]).toContain('"Missing"');
    expect(
      (await call('GET', '/api/staff/safeguarding/export?from=2027-03-01&to=2027-03-01', franCookie))
        .statusCode,
    ).toBe(403);
  });

  it('shows the certificate held on each session day: the old one before a renewal, the new one after', async () => {
    await setPolicy();
    await setRecords(
      fran.id,
      { dbs: dbs({ issueDate: '2024-02-29', checkedBy: 'Before renewal' }) },
      '2026-10-01T12:00:00Z',
    );
    // renewed on 26 February 2027 in Auckland (noon UTC on the 25th is 1 am on the 26th there)
    await setRecords(
      fran.id,
      {
        dbs: dbs({ certificateNumber: '009876543210', issueDate: '2027-02-24', checkedBy: 'After renewal' }),
      },
      '2027-02-25T12:00:00Z',
    );
    await insertBookings(t.ctx.db, [
      {
        sharePointId: 'rn-1',
        userId: fran.id,
        date: '2027-02-20',
        schoolName: 'Renewal School',
        title: 'Clay',
      },
      {
        sharePointId: 'rn-2',
        userId: fran.id,
        date: '2027-02-26',
        schoolName: 'Renewal School',
        title: 'Clay',
      },
      {
        sharePointId: 'rn-3',
        userId: fran.id,
        date: '2027-03-10',
        schoolName: 'Renewal School',
        title: 'Clay',
      },
    ]);
    const response = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2027-02-01&to=2027-03-31&school=Renewal%20School',
      staffCookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    // before the renewal: the old certificate, warned of, as it stood then (not today's)
    expect(lines[1]).toContain('"2027-02-20","Renewal School","Clay","Fran","********7890","2024-02-29"');
    expect(lines[1]).toContain('"Before renewal","2027-02-27","Expiring soon"');
    // from the day of the renewal on: the new one
    for (const [line, date] of [
      [lines[2], '2027-02-26'],
      [lines[3], '2027-03-10'],
    ] as const) {
      expect(line).toContain(`"${date}","Renewal School","Clay","Fran","********3210","2027-02-24"`);
      expect(line).toContain('"After renewal","2030-02-23","Valid"');
    }
    expect(response.body).not.toContain('009876543210');

    // the school's assurance reads the same states
    const assurance = await call(
      'GET',
      '/api/staff/assurance?from=2027-02-01&to=2027-03-31&school=Renewal%20School',
      staffCookie,
    );
    expect(assurance.statusCode, assurance.body).toBe(200);
    expect(
      assurance
        .json()
        .sessions.map((s: { date: string; person: { dbs: { certificate: string } } }) => [
          s.date,
          s.person.dbs.certificate,
        ]),
    ).toEqual([
      ['2027-02-20', '********7890'],
      ['2027-02-26', '********3210'],
      ['2027-03-10', '********3210'],
    ]);
  });

  it('refuses a range over a year or in the wrong order', async () => {
    const long = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2026-01-01&to=2027-06-01',
      staffCookie,
    );
    expect(long.statusCode).toBe(400);
    const backwards = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2026-02-01&to=2026-01-01',
      staffCookie,
    );
    expect(backwards.statusCode).toBe(400);
  });
});

describe('a change of the policy', () => {
  it('says before it is saved whose state it changes today, and saves nothing', async () => {
    await setPolicy();
    await setRecords(fran.id, { dbs: dbs({ issueDate: '2022-01-10' }) });
    const versions = await t.ctx.db.select().from(safeguardingPolicyVersions);
    const preview = await call(
      'POST',
      '/api/staff/safeguarding/policy/preview',
      staffCookie,
      policyBody({ checkTypes: ['First aid'] }),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    // Auckland is 12 hours ahead: noon UTC on the 15th is already the 16th there
    expect(body.date).toBe('2022-06-16');
    expect(body.facilitators).toBe(2);
    // Sam has no records and is missing either way: only Fran changes
    expect(body.changes).toEqual([
      { userId: fran.id, name: 'Fran', from: 'valid', to: 'missing', reasons: ['No First aid recorded'] },
    ]);
    const shorter = await call(
      'POST',
      '/api/staff/safeguarding/policy/preview',
      staffCookie,
      policyBody({ dbsMonths: 3 }),
    );
    expect(shorter.json().changes).toMatchObject([{ userId: fran.id, from: 'valid', to: 'expired' }]);
    expect((await call('GET', '/api/staff/safeguarding/policy', staffCookie)).json().checkTypes).toEqual([]);
    expect(await t.ctx.db.select().from(safeguardingPolicyVersions)).toEqual(versions);
    expect(await stateOn('2022-06-16')).toBe('valid');
  });

  it('applies from the day it is saved: earlier days and the record for schools keep the policy they had', async () => {
    await setPolicy();
    // saved today, before the sessions, as the record for schools reads the records of each session's
    // day (a checker unlike the test before's, so the save is a change and adds a state)
    await saveRecords(fran.id, { dbs: dbs({ issueDate: '2022-01-10', checkedBy: 'Jo (office)' }) });
    await insertBookings(t.ctx.db, [
      { sharePointId: 'pv-1', userId: fran.id, date: '2022-07-01', schoolName: 'Past School', title: 'Art' },
      { sharePointId: 'pv-2', userId: fran.id, date: '2022-09-01', schoolName: 'Past School', title: 'Art' },
    ]);
    // two months later (sessions keep the app's time, so sign in again) a first-aid check is added
    now = new Date('2022-08-15T12:00:00Z');
    staffCookie = await t.loginStaff();
    await setPolicy({ checkTypes: ['First aid'] });
    expect(await stateOn('2022-07-01')).toBe('valid');
    expect(await stateOn('2022-08-15')).toBe('valid');
    expect(await stateOn('2022-08-16')).toBe('missing');
    expect(await stateOn('2022-09-01')).toBe('missing');
    const record = await call(
      'GET',
      '/api/staff/safeguarding/export?from=2022-07-01&to=2022-09-30&school=Past%20School',
      staffCookie,
    );
    const lines = record.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"2022-07-01"');
    expect(lines[1]).toContain('"Valid"');
    expect(lines[1]).not.toContain('First aid');
    expect(lines[2]).toContain('"2022-09-01"');
    expect(lines[2]).toContain('"Missing"');
    expect(lines[2]).toContain('"First aid: Missing"');

    // saved again the same day: that day's version is replaced, not added to
    await setPolicy({ checkTypes: ['First aid', 'Insurance'] });
    const versions = await t.ctx.db.select().from(safeguardingPolicyVersions);
    expect(versions.map((v) => [v.effectiveFrom, v.checkTypes])).toEqual([
      ['2022-06-16', []],
      ['2022-08-16', ['First aid', 'Insurance']],
    ]);

    await t.ctx.db.delete(safeguardingPolicyVersions);
    now = new Date(START);
    staffCookie = await t.loginStaff();
    franCookie = await t.login('fran@example.org', 'fran-pass-1');
    await setPolicy();
  });
});
