/**
 * Cross-site requests: every state-changing route is refused, by every method, from another site,
 * with nothing changed; reads and same-origin or non-browser requests go through; X-Forwarded-Host
 * counts only behind a trusted proxy. The routes come from the app itself (`routes`), and each
 * state-changing one needs a would-be-successful request in the route table (test/route-table.ts).
 * Set-up: src/server/test/sessions-app.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePasswordLink } from '../modules/password-links/service';
import { findUserById } from '../modules/users/service';
import { TABLES } from '../test/db-state';
import { insertOffer, insertOpenSession, offerLinkToken } from '../test/factories';
import { STAFF, type TestApp } from '../test/harness';
import { type CrossSiteFixture, type CrossSiteTarget, ROUTES, routeKey } from '../test/route-table';
import {
  CROSS_SITE,
  cookieHeader,
  type Method,
  type Person,
  send,
  sessionsApp,
  urlOf,
} from '../test/sessions-app';

const w = sessionsApp({ secure: true });
const { signIn, signInStaff, whoAmI, dump } = w;
let t: TestApp;
let a: Person;
let b: Person;
let secure: TestApp;
beforeAll(() => {
  ({ t, a, b } = w);
  secure = w.secure;
});

/** Figures for the closing note, printed after the file. */
const counted = { crossSiteRefused: 0, crossSiteAllowed: 0 };
afterAll(() => {
  console.log(
    `sessions and requests: ${counted.crossSiteRefused} cross-site requests refused with nothing changed, ${counted.crossSiteAllowed} same-origin/non-browser requests let through`,
  );
});

/** What another site's page can make a browser send. */
const HOSTILE: [string, Record<string, string>][] = [
  ['Origin of another site', { origin: 'https://evil.example' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
  ['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
  ['Origin of our host on another port', { host: 'portal.example', origin: 'https://portal.example:8443' }],
  [
    'cross-site even with our Origin',
    { host: 'portal.example', origin: 'https://portal.example', 'sec-fetch-site': 'cross-site' },
  ],
  [
    'X-Forwarded-Host naming the other site (proxy not trusted)',
    { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
  ],
];

/** What the portal's own pages and non-browser clients send. */
const FRIENDLY: [string, Record<string, string>][] = [
  ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
  ['Origin of this host', { host: 'portal.example', origin: 'http://portal.example' }],
  [
    'both, as a browser sends them',
    { host: 'portal.example', origin: 'http://portal.example', 'sec-fetch-site': 'same-origin' },
  ],
  ['neither (curl, scripts)', {}],
];

describe('cross-site requests', () => {
  let f: CrossSiteFixture;
  const changing = () => t.routes.filter((route) => route.changesState);

  beforeAll(async () => {
    const staffCookie = await signInStaff();
    const note = await send(t, 'POST', '/api/staff/notes', {
      cookie: staffCookie,
      payload: { facilitatorId: a.id, date: '2026-12-01', note: 'About A' },
    });
    const sessionDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const open = await insertOpenSession(t.ctx.db, {
      title: 'Open',
      date: sessionDate,
      sharePointId: 'csrf-open',
    });
    const replyBy = new Date(Date.now() + 30 * 86_400_000);
    const offered = await insertOffer(t.ctx.db, {
      bookingId: open.id,
      userId: a.id,
      replyBy,
      linkNonce: 'csrf-link',
    });
    f = {
      a,
      aCookie: await signIn(a),
      staffCookie,
      noteId: note.json().id,
      sessionId: open.id,
      offerId: offered.id,
      offerToken: offerLinkToken(t.ctx.appSecret, offered),
      passwordLinkToken: await makePasswordLink(
        t.ctx.db,
        (await findUserById(t.ctx.db, a.id))!,
        'reset',
        t.ctx.now(),
      ),
    };
  });

  const cookieFor = (who: CrossSiteTarget['who']) =>
    who === 'a' ? f.aCookie : who === 'staff' ? f.staffCookie : undefined;

  it('has a would-be-successful request for every state-changing route', () => {
    const served = changing().map((route) => `${route.method} ${route.url}`);
    expect(
      served.filter((key) => !ROUTES[key]?.crossSite),
      'state-changing routes without a request here',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((key) => ROUTES[key]!.crossSite && !served.includes(key)),
      'requests for routes that are gone',
    ).toEqual([]);
  });

  // every state-changing route × every hostile header set, with two dumps of the database each: the
  // default 30 s is too short for it on a shared two-core machine
  it('refuses every state-changing route, by every method, from another site, and nothing changes', {
    timeout: 120_000,
  }, async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of changing()) {
      const target = ROUTES[routeKey(route)]!.crossSite!(f);
      const methods = [route.method, ...(route.method === 'GET' ? ['HEAD'] : [])];
      for (const method of methods) {
        for (const [label, headers] of HOSTILE) {
          const before = await dump();
          const response = await send(t, method as Method, urlOf(route, target.id, target.token), {
            cookie: cookieFor(target.who),
            payload: target.payload,
            headers,
          });
          checked++;
          counted.crossSiteRefused++;
          const after = await dump();
          if (response.statusCode !== 403)
            failures.push(`${method} ${route.url} [${label}]: ${response.statusCode}`);
          else if (method !== 'HEAD' && response.json().message !== CROSS_SITE)
            failures.push(`${method} ${route.url} [${label}]: ${response.body}`);
          const changed = TABLES.map(([name]) => name).filter((name) => before[name] !== after[name]);
          if (changed.length)
            failures.push(`${method} ${route.url} [${label}]: changed ${changed.join(', ')}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(changing().length * HOSTILE.length);
    // the sessions it tried to end are alive
    expect(await whoAmI(f.aCookie)).toBe(200);
    expect(await whoAmI(f.staffCookie)).toBe(200);
  });

  it('refuses other methods and unknown paths from another site before anything else answers', async () => {
    const paths = [
      ...new Set(changing().map((route) => urlOf(route))),
      '/api/staff/not-a-route',
      '/api/not-a-route',
      '/not-api',
    ];
    const failures: string[] = [];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const response = await send(t, method, path, {
          cookie: f.staffCookie,
          payload: {},
          headers: { 'sec-fetch-site': 'cross-site' },
        });
        if (response.statusCode !== 403 || response.json().message !== CROSS_SITE)
          failures.push(`${method} ${path}: ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets reads through: another site cannot read the answer (no CORS), and links must work', async () => {
    for (const route of t.routes.filter((r) => !r.changesState)) {
      const response = await send(t, 'GET', urlOf(route), {
        cookie: f.staffCookie,
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      });
      expect(response.statusCode, route.url).not.toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it.each(FRIENDLY)('lets every state-changing route through with %s', async (_label, headers) => {
    // inert requests (bad input, unknown ids, throwaway sessions): only the cross-site guard is under test
    const refused: string[] = [];
    for (const route of changing()) {
      const target = ROUTES[routeKey(route)]!.crossSite!(f);
      const isLogout = route.url.includes('logout');
      const cookie = isLogout ? await signIn(b) : cookieFor(target.who);
      const response = await send(t, route.method as Method, urlOf(route), {
        cookie,
        payload:
          isLogout || route.url.endsWith('/refresh') || route.url.endsWith('/import')
            ? undefined
            : { userId: 'x' },
        headers,
      });
      counted.crossSiteAllowed++;
      if (response.statusCode === 403) refused.push(`${route.method} ${route.url}: ${response.body}`);
    }
    expect(refused).toEqual([]);
  });

  it('a real save from the portal page works (same-origin headers as Chromium sends them)', async () => {
    const response = await send(t, 'POST', '/api/availability', {
      cookie: f.aCookie,
      payload: { date: '2026-12-03', status: 'limited' },
      headers: { host: 'portal.example', origin: 'https://portal.example', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('honours X-Forwarded-Host for the Origin check only behind a trusted proxy', async () => {
    const staffCookie = cookieHeader(await send(secure, 'POST', '/api/auth/staff-login', { payload: STAFF }));
    const viaProxy = await send(secure, 'POST', '/api/staff/notes', {
      cookie: staffCookie,
      payload: { facilitatorId: 999_999, date: '2026-12-01', note: 'x' },
      headers: {
        host: '10.0.0.5:5000',
        'x-forwarded-host': 'portal.example',
        'x-forwarded-proto': 'https',
        origin: 'https://portal.example',
      },
    });
    expect(viaProxy.json().message).not.toBe(CROSS_SITE);
    const spoofed = await send(t, 'POST', '/api/staff/notes', {
      cookie: f.staffCookie,
      payload: { facilitatorId: a.id, date: '2026-12-01', note: 'x' },
      headers: {
        host: '10.0.0.5:5000',
        'x-forwarded-host': 'portal.example',
        'x-forwarded-proto': 'https',
        origin: 'https://portal.example',
      },
    });
    expect(spoofed.statusCode).toBe(403);
  });
});
