/**
 * The set-up the list answer suites share (http/list-answers.test.ts, http/list-etags.test.ts): one
 * app, staff signed in, and two facilitators, Alice and Ben, each signed in; `save` saves a day as a
 * facilitator through the API. Call `listApp()` inside the suite's describe: it registers the hooks
 * that start and stop the app.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './harness';

export interface SignedIn {
  id: number;
  cookie: string;
}

export interface ListApp {
  readonly t: TestApp;
  /** staff's session cookie */
  readonly staff: string;
  readonly alice: SignedIn;
  readonly ben: SignedIn;
  /** POST /api/availability as whoever holds the cookie: a day with no times and no notes */
  save(cookie: string, date: string, status: string): Promise<LightMyRequestResponse>;
}

export function listApp(): ListApp {
  let t: TestApp | undefined;
  let staff = '';
  let alice: SignedIn | undefined;
  let ben: SignedIn | undefined;
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not set up yet (listApp)`);
    return value;
  };

  beforeAll(async () => {
    t = await createTestApp();
    staff = await t.loginStaff();
    const a = await t.createUser({ username: 'alice@example.org' });
    const b = await t.createUser({ username: 'ben@example.org' });
    alice = { id: a.id, cookie: await t.login(a.username, a.password) };
    ben = { id: b.id, cookie: await t.login(b.username, b.password) };
  }, 120_000);
  afterAll(() => t?.close());

  return {
    get t() {
      return ready(t, 't');
    },
    get staff() {
      return ready(staff || undefined, 'staff');
    },
    get alice() {
      return ready(alice, 'alice');
    },
    get ben() {
      return ready(ben, 'ben');
    },
    save: (cookie, date, status) =>
      ready(t, 't').app.inject({
        method: 'POST',
        url: '/api/availability',
        headers: { cookie },
        payload: { date, status, startTime: '', endTime: '', notes: '' },
      }),
  };
}
