/**
 * Secrets never reach an answer or a log line: SharePoint and SMTP secrets, passwords, session tokens
 * and what the database stores for them, through sign-ins, password changes, settings saves, refreshes,
 * reminders and every GET route as staff, facilitator and signed out, at LOG_LEVEL=trace.
 * Set-up: src/server/test/sessions-app.ts.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { bookings } from '../db/schema';
import type { ConnectorSetup } from '../sharepoint/test-support';
import { TEST_METRICS_TOKEN } from '../test/built-client';
import { insertOffer, offerLinkToken } from '../test/factories';
import { STAFF, type TestApp } from '../test/harness';
import {
  cookieHeader,
  type Method,
  type Send,
  send,
  sessionCookie,
  sessionsApp,
  urlOf,
} from '../test/sessions-app';

// SharePoint secrets, distinctive so any copy of them is found
const SP_CLIENT_SECRET = 'Cl1ent-Secret~Distinct~8c41f0';
const SP_PASSWORD = 'Sp-Passw0rd~Distinct~71be2d';
const SMTP_PASSWORD = 'Smtp-Passw0rd~Distinct~9c41aa';
// an invitation link's token (the form of one: this server has no Microsoft sign-in configured)
const INVITATION = 'Inv1tationTokenDistinct5a0c3e9d7b1f2468ace0';

const w = sessionsApp();
let t: TestApp;
let s: ConnectorSetup;
beforeAll(() => {
  ({ t, s } = w);
});

/** Figures for the closing note, printed after the file. */
const counted = { secrets: 0, logLines: 0 };
afterAll(() => {
  console.log(
    `sessions and requests: ${counted.secrets} secrets searched for in every response and ${counted.logLines} trace log lines`,
  );
});

describe('secrets never in responses or logs', () => {
  it('keeps SharePoint secrets, passwords and session tokens out of every answer and log line (LOG_LEVEL=trace)', async () => {
    w.logLines.length = 0;
    const bodies: string[] = [];
    const tokens = new Set<string>();
    const record = (response: LightMyRequestResponse) => {
      const { 'set-cookie': setCookie, ...headers } = response.headers;
      bodies.push(response.body, JSON.stringify(headers));
      const issued = sessionCookie(response)?.value;
      if (issued) tokens.add(issued);
      return response;
    };
    const go = async (method: Method, url: string, options: Send = {}) =>
      record(await send(t, method, url, options));

    const c = s.emu.control.credentials;
    s.emu.control.setCredentials({
      clients: [{ clientId: c.clientId, clientSecret: SP_CLIENT_SECRET }],
      users: [{ username: 'sync@contoso.org', password: SP_PASSWORD }],
    });
    const passwords = {
      alice: 'Alice-Secret-Pass-5521',
      aliceNew: 'Alice-Newer-Pass-9917',
      created: 'Created-User-Pass-3380',
      reset: 'Reset-By-Staff-Pass-4406',
      wrongGuess: 'Wrong-Guess-Pass-1177',
      wrongSecret: 'Wrong-Client-Secret-6643',
    };
    const user = await t.createUser({ username: 'secretive@example.org', password: passwords.alice });

    const staffCookie = cookieHeader(
      await go('POST', '/api/auth/staff-login', { payload: STAFF, address: '10.7.0.1' }),
    );
    await go('POST', '/api/login', {
      payload: { username: user.username, password: passwords.wrongGuess },
      address: '10.7.0.1',
    });
    await go('POST', '/api/auth/staff-login', {
      payload: { username: STAFF.username, password: passwords.wrongGuess },
      address: '10.7.0.1',
    });
    let userCookie = cookieHeader(
      await go('POST', '/api/login', {
        payload: { username: user.username, password: passwords.alice },
        address: '10.7.0.1',
      }),
    );
    userCookie = cookieHeader(
      await go('PUT', '/api/user/password', {
        cookie: userCookie,
        payload: { currentPassword: passwords.alice, newPassword: passwords.aliceNew },
      }),
    );
    await go('PUT', '/api/user/password', {
      cookie: userCookie,
      payload: { currentPassword: passwords.wrongGuess, newPassword: passwords.reset },
    });
    const created = await go('POST', '/api/staff/users', {
      cookie: staffCookie,
      payload: { username: 'made-by-staff@example.org', password: passwords.created },
    });
    await go('PUT', `/api/staff/users/${created.json().id}`, {
      cookie: staffCookie,
      payload: {
        version: created.json().version,
        username: 'made-by-staff@example.org',
        password: passwords.reset,
      },
    });

    const { clientSecret: _secret, ...site } = portalSettingsFor(s.portal, c);
    const settings = { ...site, username: 'sync@contoso.org' };
    const tested = await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: SP_CLIENT_SECRET, password: SP_PASSWORD },
    });
    expect(tested.json().success).toBe(true);
    const wrong = await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: passwords.wrongSecret, password: passwords.wrongSecret },
    });
    expect(wrong.json().success).toBe(false);
    const saved = await go('POST', '/api/sharepoint/settings', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: SP_CLIENT_SECRET, password: SP_PASSWORD },
    });
    expect(saved.statusCode).toBe(200);
    expect((await go('POST', '/api/staff/bookings/refresh', { cookie: staffCookie })).statusCode).toBe(200);
    await go('POST', '/api/staff/facilitators/import', { cookie: staffCookie });
    await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: settings,
    });
    await go('POST', '/api/availability', {
      cookie: userCookie,
      payload: { date: '2026-12-07', status: 'available' },
    });
    await go('POST', '/api/sharepoint/sync-all', { cookie: userCookie, payload: {} });
    // the email settings hold a password too; sending fails (the name never resolves) and is logged
    const smtp = await go('PUT', '/api/staff/reminders/settings', {
      cookie: staffCookie,
      payload: {
        host: 'smtp.portal.invalid',
        port: 9,
        security: 'none',
        username: 'mailer',
        password: SMTP_PASSWORD,
        fromAddress: 'portal@example.org',
        autoEnabled: false,
        autoDay: 1,
        autoMonth: 'next',
      },
    });
    expect(smtp.statusCode, smtp.body).toBe(200);
    await go('POST', '/api/staff/reminders/send', { cookie: staffCookie, payload: { month: '2026-12' } });

    // the public calendar feed is read with a live token (staff's own feed)
    const feed = await go('POST', '/api/calendar-feed', { cookie: staffCookie });
    const feedPath = (feed.json() as { path: string }).path;

    // a session to read offers of, and a live email link to one (read, never answered, by GET)
    const [someBooking] = await t.ctx.db.select({ id: bookings.id }).from(bookings).limit(1);
    const linkReplyBy = new Date(t.ctx.now().getTime() + 86_400_000);
    const linked = await insertOffer(t.ctx.db, {
      bookingId: someBooking!.id,
      userId: user.id,
      replyBy: linkReplyBy,
      linkNonce: 'secrets-link',
    });
    const offerToken = offerLinkToken(t.ctx.appSecret, linked);

    // link credentials: the offer link's token in the body; an invitation from an old link, whose
    // address carried it in the query string, on the page and posted to the start
    expect((await go('POST', '/api/offer-links/view', { payload: { token: offerToken } })).statusCode).toBe(
      200,
    );
    await go('GET', `/staff-login?invitation=${INVITATION}`);
    await go('GET', `/api/auth/microsoft/callback?code=${INVITATION}&state=${INVITATION}`);
    await go('POST', '/api/auth/microsoft/start', { payload: { invitation: INVITATION } });

    // every GET route, as staff, as the facilitator and signed out
    for (const route of t.routes.filter((r) => r.method === 'GET' && !r.url.includes('logout'))) {
      if (route.url.endsWith('/:token.ics')) {
        for (const cookie of [staffCookie, userCookie, undefined])
          expect((await go('GET', feedPath, { cookie })).statusCode, route.url).toBe(200);
        continue;
      }
      const queries: Record<string, string> = {
        '/api/staff/notes': '?date=2026-12-01&view=month',
        '/api/staff/history': `?userId=${user.id}&date=2026-12-07`,
        '/api/staff/free': '?date=2026-12-07',
        '/api/staff/completeness': '?month=2026-12',
        '/api/staff/export': '?format=csv&from=2026-11-01&to=2026-12-31',
      };
      const query = queries[route.url] ?? (route.schema.querystring ? '?from=2026-11-01&to=2026-12-31' : '');
      // a person's history is read for the accounts whose passwords changed above
      const ids =
        route.url === '/api/staff/users/:id/history'
          ? [user.id, created.json().id]
          : route.url.startsWith('/api/staff/users/:id/')
            ? [user.id]
            : route.url.startsWith('/api/staff/sessions/:id')
              ? [someBooking!.id]
              : [undefined];
      for (const id of ids)
        for (const cookie of [staffCookie, userCookie, undefined]) {
          // the metrics are read with their bearer token, so their text is searched for secrets too
          const headers: Record<string, string> =
            route.url === '/metrics' ? { authorization: `Bearer ${TEST_METRICS_TOKEN}` } : {};
          const response = await go('GET', `${urlOf(route, id, offerToken)}${query}`, { cookie, headers });
          // the Microsoft sign-in steps send the browser on (to Microsoft, or back with a reason)
          if (cookie === staffCookie && route.access !== 'user')
            expect(response.statusCode, route.url).toBe(
              route.url.startsWith('/api/auth/microsoft/')
                ? 302
                : // nobody has a photo here: its answer is the 404 that says so
                  route.url === '/api/staff/users/:id/photo'
                  ? 404
                  : 200,
            );
        }
    }
    await go('GET', '/api/docs/json');
    await go('GET', '/api/logout', { cookie: userCookie });
    await go('POST', '/api/logout', { cookie: staffCookie });

    const stored = await t.ctx.db.execute(
      sql`select password_hash as v from users where password_hash is not null
          union all select client_secret_encrypted from sharepoint_settings where client_secret_encrypted is not null
          union all select password_encrypted from sharepoint_settings where password_encrypted is not null
          union all select token_hash from calendar_feeds union all select token_encrypted from calendar_feeds
          union all select smtp_password_encrypted from reminder_settings where smtp_password_encrypted is not null`,
    );
    const storedSecrets = (stored as unknown as { rows: { v: string }[] }).rows.map((row) => row.v);
    expect(storedSecrets.length).toBeGreaterThanOrEqual(4);

    const forbidden: [string, string][] = [
      ['SharePoint client secret', SP_CLIENT_SECRET],
      ['SharePoint password', SP_PASSWORD],
      ['SMTP password', SMTP_PASSWORD],
      ...Object.entries(passwords).map(([name, value]) => [`password ${name}`, value] as [string, string]),
      ['staff password', STAFF.password],
      ['offer link token', offerToken],
      ['invitation token', INVITATION],
      ...[...tokens].map((token, i) => [`session token #${i + 1}`, token] as [string, string]),
      ...storedSecrets.map((value, i) => [`stored hash or ciphertext #${i + 1}`, value] as [string, string]),
    ];
    expect(tokens.size).toBeGreaterThanOrEqual(3);
    // the capture works: trace-level request lines and the settings log line are there
    expect(w.logLines.length).toBeGreaterThan(50);
    expect(w.logLines.some((line) => line.includes('incoming request'))).toBe(true);
    expect(w.logLines.some((line) => line.includes('SharePoint settings saved'))).toBe(true);

    const leaks: string[] = [];
    for (const [name, secret] of forbidden) {
      if (bodies.some((body) => body.includes(secret))) leaks.push(`${name} in a response`);
      const line = w.logLines.find((l) => l.includes(secret));
      if (line) leaks.push(`${name} in the log: ${line.slice(0, 300)}`);
    }
    expect(leaks, leaks.join('\n')).toEqual([]);
    // A feed's token is its URL (its owner is shown it), so it may be in answers but never in the log.
    const feedToken = feedPath.replace(/^.*\//, '').replace(/\.ics$/, '');
    expect(feedToken.length).toBeGreaterThan(20);
    expect(w.logLines.some((line) => line.includes('/api/calendar-feed/[redacted].ics'))).toBe(true);
    expect(w.logLines.find((line) => line.includes(feedToken))).toBeUndefined();
    counted.secrets = forbidden.length;
    counted.logLines = w.logLines.length;
  });
});
