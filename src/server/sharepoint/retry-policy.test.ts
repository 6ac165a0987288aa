/**
 * The one retry policy (retry.ts, docs/decisions/0032) and the answer schemas (graph-answers.ts,
 * docs/decisions/0033) against the emulator over real HTTP. The policy's clock and sleep are a fake
 * here: every wait is recorded and advances the fake clock at once, so a Retry-After of minutes costs
 * no real time and the waits themselves are what the tests check.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schedulerState, syncOutbox } from '../db/schema';
import { saveDay } from '../modules/availability/service';
import { SharePointError } from './errors';
import { drainOutboxOnce } from './outbox-worker';
import { PauseGate, type RetryTimings } from './retry';
import { SharePointSession } from './session';
import { loadSharePointSettings } from './settings';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let siteId: string;
let bookingsId: string;

/** Production's ladder (1 s doubling to 60 s, 6 sends, 120 s budget) on a clock that only moves when waited on. */
function fakeTime() {
  let now = Date.parse('2026-05-04T09:00:00Z');
  const waits: number[] = [];
  const timings: Partial<RetryTimings> = {
    baseDelayMs: 1000,
    maxDelayMs: 60_000,
    maxAttempts: 6,
    maxRetryAfterMs: 300_000,
    totalBudgetMs: 120_000,
    requestTimeoutMs: 5000,
    random: () => 0.5,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
  return { waits, timings, elapsed: () => now - Date.parse('2026-05-04T09:00:00Z') };
}

async function sessionWith(time: ReturnType<typeof fakeTime>) {
  const settings = (await loadSharePointSettings(s.t.ctx.db, s.t.ctx.appSecret))!;
  const gate = new PauseGate({ now: time.timings.now!, sleep: time.timings.sleep! });
  return { session: new SharePointSession(settings, s.t.config, { timings: time.timings, gate }), gate };
}

const graphCalls = (path: RegExp) => s.emu.control.requestCount({ path });

beforeAll(async () => {
  s = await setupConnector({ seed: { seed: 'policy', bookingCount: 12, availability: [] } });
  const { session } = await sessionWith(fakeTime());
  siteId = await session.siteId();
  bookingsId = await session.listId('Bookings');
});
afterAll(() => s.close());
beforeEach(async () => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
  await s.emu.control.setOutage(false);
});

describe('which failures are sent again, and how often', () => {
  it('sends a call that keeps meeting 503 exactly maxAttempts times, backing off between sends', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    s.emu.control.addFault({ path: '*/columns', times: 'always', action: { type: 'status', status: 503 } });
    const error = (await session.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error).toBeInstanceOf(SharePointError);
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(true);
    expect(graphCalls(/\/columns$/)).toBe(6);
    // equal jitter at random 0.5: three quarters of 1, 2, 4, 8, 16 s
    expect(time.waits).toEqual([750, 1500, 3000, 6000, 12_000]);
  });

  it('honours Retry-After (decimal seconds) on 429, with every call of the host waiting on the gate', async () => {
    const time = fakeTime();
    const { session, gate } = await sessionWith(time);
    s.emu.control.failNext(2, 429, { retryAfter: 2.128, path: '*/columns' });
    const columns = await session.client.columns(siteId, bookingsId);
    expect(columns.length).toBeGreaterThan(0);
    expect(graphCalls(/\/columns$/)).toBe(3);
    expect(time.waits).toEqual([2128, 2128]);
    expect(gate.remaining()).toBe(0);
  });

  it('stops at the time budget before maxAttempts when Retry-After keeps asking for long waits', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    s.emu.control.addFault({
      path: '*/columns',
      times: 'always',
      action: { type: 'status', status: 429, retryAfter: 30 },
    });
    const error = (await session.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.status).toBe(429);
    // sends at 0, 30, 60, 90 and 120 s; a sixth would start past the 120 s budget
    expect(graphCalls(/\/columns$/)).toBe(5);
    expect(time.waits).toEqual([30_000, 30_000, 30_000, 30_000]);
    expect(time.elapsed()).toBeLessThanOrEqual(120_000);
  });

  it('gives up at once on a Retry-After past the budget, and keeps the whole host paused for it', async () => {
    const time = fakeTime();
    const { session, gate } = await sessionWith(time);
    s.emu.control.failNext(1, 503, { retryAfter: 200, path: '*/columns' });
    const error = (await session.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.status).toBe(503);
    expect(graphCalls(/\/columns$/)).toBe(1);
    expect(time.waits).toEqual([]);
    expect(gate.remaining()).toBe(200_000);
  });

  it('never sends again a 500, a 400 or a create that met a 503', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    s.emu.control.failNext(1, 500, { path: '*/columns' });
    await expect(session.client.columns(siteId, bookingsId)).rejects.toMatchObject({ status: 500 });
    s.emu.control.failNext(1, 400, { path: '*/columns' });
    await expect(session.client.columns(siteId, bookingsId)).rejects.toMatchObject({ status: 400 });
    expect(graphCalls(/\/columns$/)).toBe(2);

    const availabilityId = await session.listId('Availability');
    s.emu.control.failNext(1, 503, { method: 'POST', path: '*/items' });
    await expect(
      session.client.createItem(siteId, availabilityId, { Title: '4401|2026-05-04' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(s.emu.control.requestCount({ method: 'POST', path: /\/items$/ })).toBe(1);
    expect(time.waits).toEqual([]);
  });

  it('retries the token endpoint under the same policy, and Graph does not repeat a sign-in that failed', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    s.emu.control.addFault({
      path: '*/oauth2/v2.0/token',
      times: 'always',
      action: { type: 'status', status: 503, retryAfter: 1 },
    });
    const error = (await session.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(true);
    expect(s.emu.control.requestCount({ path: /oauth2/ })).toBe(6);
    expect(time.waits).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(graphCalls(/\/columns$/)).toBe(0);
  });

  it('keeps every day of an outbox round queued, after a bounded number of calls, while Graph answers 503', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    const user = await s.t.createUser({ username: 'policy@example.org', freelancerId: '4402' });
    for (const date of ['2026-05-04', '2026-05-05', '2026-05-06']) {
      await saveDay(
        s.t.ctx,
        { userId: user.id, date, status: 'available', startTime: '', endTime: '', notes: '' },
        { id: user.id, mayOverrideBookings: false, via: 'facilitator' },
      );
    }
    await session.columns('availability'); // the list's mapping is read outside the faults
    s.emu.control.clearRequests();
    s.emu.control.addFault({
      path: '*/items/delta',
      times: 'always',
      action: { type: 'status', status: 503 },
    });
    const later = () => new Date(Date.now() + 10 * 60_000);
    const result = await drainOutboxOnce(s.t.ctx.db, session, later, { concurrency: 4 });
    expect(result).toMatchObject({ claimed: 3, delivered: 0, failed: 3, serviceDown: true });
    // one read of the list's change feed for the three unknown keys, sent maxAttempts times; nothing after
    expect(graphCalls(/\/items\/delta/)).toBe(6);
    expect(s.emu.control.requestCount({ method: 'POST' })).toBe(0);
    expect(s.emu.control.items(s.portal.lists.availability!)).toHaveLength(0);
    const queued = await s.t.ctx.db.select().from(syncOutbox);
    expect(queued).toHaveLength(3);
    expect(queued.every((row) => row.attempts === 1 && row.lastError?.includes('HTTP 503'))).toBe(true);
    // the whole list waits: the next round claims nothing and sends nothing
    s.emu.control.clearRequests();
    expect(await drainOutboxOnce(s.t.ctx.db, session, later)).toMatchObject({
      claimed: 0,
      pausedUntil: result.pausedUntil,
    });
    expect(s.emu.control.requestCount()).toBe(0);
    await s.t.ctx.db.delete(syncOutbox);
    await s.t.ctx.db.delete(schedulerState);
  });
});

describe('answers in the wrong shape', () => {
  it('fails a page of items without ids with a clear error, without sending it again', async () => {
    const time = fakeTime();
    const { session } = await sessionWith(time);
    s.emu.control.addFault({
      method: 'GET',
      path: '*/items',
      action: { type: 'reply', body: { value: [{ fields: { Title: 'x' } }] } },
    });
    const error = (await session.client
      .listItems(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(
      /^SharePoint's answer to GET \/v1\.0\/sites\/.+\/items was not in the expected form \(value\.0\.id: /,
    );
    expect(graphCalls(/\/items$/)).toBe(1);
    expect(time.waits).toEqual([]);
  });

  it('fails a delta page with a broken entry or no link onward, and a site answer without an id', async () => {
    const { session } = await sessionWith(fakeTime());
    s.emu.control.addFault({
      path: '*/items/delta',
      times: 2,
      action: { type: 'reply', body: { value: [{ id: '1' }, { deleted: {} }], '@odata.deltaLink': 'x' } },
    });
    await expect(session.client.delta(siteId, bookingsId)).rejects.toThrow(/value\.1\.id: /);
    s.emu.control.addFault({
      path: '*/items/delta',
      times: 2,
      action: { type: 'reply', body: { value: 'none' } },
    });
    await expect(session.client.delta(siteId, bookingsId)).rejects.toThrow(/value: expected array/);
    s.emu.control.addFault({
      path: '/v1.0/sites/*',
      action: { type: 'reply', body: { displayName: 'Team' } },
    });
    await expect(session.client.resolveSite(s.portal.site.webUrl)).rejects.toThrow(/\(id: expected string\)/);
  });

  it('names what is wrong with a token answer without showing the token', async () => {
    const { session } = await sessionWith(fakeTime());
    s.emu.control.addFault({
      path: '*/oauth2/v2.0/token',
      action: { type: 'reply', body: { access_token: 'sekrit-token-value', expires_in: 'soon' } },
    });
    const error = (await session.tokens.getToken().catch((e: unknown) => e)) as SharePointError;
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      "The sign-in service's answer was not in the expected form (expires_in: expected number).",
    );
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain('sekrit');
    expect(s.emu.control.requestCount({ path: /oauth2/ })).toBe(1);
  });

  it('changes nothing when the look-up answer of an outbox round is malformed: the day stays queued with the reason', async () => {
    const { session } = await sessionWith(fakeTime());
    const user = await s.t.createUser({ username: 'shape@example.org', freelancerId: '4403' });
    await saveDay(
      s.t.ctx,
      { userId: user.id, date: '2026-05-07', status: 'limited', startTime: '', endTime: '', notes: '' },
      { id: user.id, mayOverrideBookings: false, via: 'facilitator' },
    );
    await session.columns('availability');
    s.emu.control.clearRequests();
    s.emu.control.addFault({
      method: 'GET',
      path: '*/items/delta',
      times: 'always',
      action: { type: 'reply', body: { value: [{ fields: { Title: 'x' } }], '@odata.deltaLink': 'x' } },
    });
    const later = () => new Date(Date.now() + 10 * 60_000);
    const result = await drainOutboxOnce(s.t.ctx.db, session, later);
    expect(result).toMatchObject({ claimed: 1, delivered: 0, failed: 1 });
    expect(result.lastError).toMatch(/was not in the expected form \(value\.0\.id: /);
    expect(s.emu.control.requestCount({ method: 'POST', path: /\/items$/ })).toBe(0);
    expect(s.emu.control.requestCount({ method: 'PATCH' })).toBe(0);
    expect(s.emu.control.items(s.portal.lists.availability!)).toHaveLength(0);
    const [row] = await s.t.ctx.db.select().from(syncOutbox);
    expect(row?.lastError).toBe(result.lastError);
    await s.t.ctx.db.delete(syncOutbox);
    await s.t.ctx.db.delete(schedulerState);
  });
});
