/**
 * Security headers on every answer of every route, for every role, whatever the status (pages,
 * assets, the API reader, 429 and 5xx included), and session cookies that are HttpOnly, SameSite=Lax
 * and Secure exactly when they should be. Set-up: src/server/test/sessions-app.ts.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '../../shared/schemas/auth';
import { createTestApp, STAFF, type TestApp } from '../test/harness';
import {
  cookieHeader,
  type Method,
  type Person,
  send,
  sessionsApp,
  THROTTLE,
  urlOf,
} from '../test/sessions-app';

const w = sessionsApp({ secure: true });
const { signIn, signInStaff } = w;
let t: TestApp;
let a: Person;
let b: Person;
let secure: TestApp;
beforeAll(() => {
  ({ t, a, b } = w);
  secure = w.secure;
});

/** Figures for the closing note, printed after the file. */
const counted = { headerAnswers: 0 };
afterAll(() => {
  console.log(`sessions and requests: ${counted.headerAnswers} answers checked for security headers`);
});

function hardened(response: LightMyRequestResponse, where: string, api: boolean): string[] {
  const problems: string[] = [];
  const csp = String(response.headers['content-security-policy'] ?? '');
  if (!csp.includes("frame-ancestors 'none'"))
    problems.push(`${where}: CSP without frame-ancestors 'none' (${csp})`);
  if (!/default-src 'self'/.test(csp)) problems.push(`${where}: CSP without default-src 'self'`);
  if (/script-src[^;]*'unsafe-inline'/.test(csp)) problems.push(`${where}: CSP allows inline scripts`);
  if (response.headers['x-content-type-options'] !== 'nosniff') problems.push(`${where}: no nosniff`);
  if (!response.headers['referrer-policy']) problems.push(`${where}: no Referrer-Policy`);
  if (response.headers['x-powered-by'] !== undefined) problems.push(`${where}: X-Powered-By`);
  // list answers may be kept by the browser alone, revalidated by their ETag every time (ADR 81)
  const revalidatedList =
    response.headers['cache-control'] === 'private, no-cache' && typeof response.headers.etag === 'string';
  if (api && response.headers['cache-control'] !== 'no-store' && !revalidatedList)
    problems.push(`${where}: cache-control ${String(response.headers['cache-control'])}`);
  return problems;
}

describe('security headers', () => {
  it('are on every answer of every route, for every role, whatever the status', async () => {
    const staffCookie = await signInStaff();
    const cookies: Record<string, () => Promise<string | undefined>> = {
      anonymous: async () => undefined,
      facilitatorA: async () => signIn(a),
      facilitatorB: async () => signIn(b),
      staff: async () => signInStaff(),
    };
    const aCookie = await signIn(a);
    const bCookie = await signIn(b);
    const problems: string[] = [];
    const statuses = new Set<number>();
    let answers = 0;
    for (const route of t.routes) {
      for (const [role, fresh] of Object.entries(cookies)) {
        const endsSession = route.url.includes('logout') || route.url === '/api/user/password';
        const cookie = endsSession
          ? await fresh()
          : role === 'facilitatorA'
            ? aCookie
            : role === 'facilitatorB'
              ? bCookie
              : role === 'staff'
                ? staffCookie
                : undefined;
        for (const method of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
          // unknown ids and incomplete bodies: nothing is changed, every kind of answer is seen
          const response = await send(t, method as Method, urlOf(route), {
            cookie,
            payload: route.changesState && method !== 'GET' ? {} : undefined,
          });
          answers++;
          counted.headerAnswers++;
          statuses.add(response.statusCode);
          problems.push(
            ...hardened(response, `${method} ${route.url} as ${role} (${response.statusCode})`, true),
          );
          for (const setCookie of [response.headers['set-cookie'] ?? []].flat()) {
            // the sign-in hint is readable by scripts on purpose, and may only ever say "1"
            const hint = setCookie.startsWith(`${SESSION_HINT_COOKIE}=`);
            if (hint ? !/^afp_signed_in=1?;/.test(setCookie) : !/HttpOnly/.test(setCookie))
              problems.push(`${method} ${route.url} as ${role}: weak cookie ${setCookie}`);
            if (!/SameSite=Lax/.test(setCookie) || !/Path=\//.test(setCookie))
              problems.push(`${method} ${route.url} as ${role}: weak cookie ${setCookie}`);
          }
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 302, 400, 401, 403, 404, 409]));
    expect(answers).toBeGreaterThan(t.routes.length * 4);
  });

  it('are on pages, assets, the API reader and every kind of error', async () => {
    const staffCookie = await signInStaff();
    const cases: [string, InjectOptions, number, boolean][] = [
      ['the single-page app', { url: '/' }, 200, false],
      ['a client-side route', { url: '/staff/users' }, 200, false],
      ['a static asset', { url: '/assets/app-3f9a1c.js' }, 200, false],
      ['a POST to a page', { method: 'POST', url: '/staff', payload: {} }, 404, false],
      ['an unknown API path', { url: '/api/not-a-route', headers: { cookie: staffCookie } }, 404, true],
      ['signed out', { url: '/api/staff/users' }, 401, true],
      ['not staff', { url: '/api/staff/users', headers: { cookie: await signIn(b) } }, 403, true],
      [
        'bad JSON',
        {
          method: 'POST',
          url: '/api/login',
          payload: '{"username":',
          headers: { 'content-type': 'application/json' },
        },
        400,
        true,
      ],
      [
        'a body over the limit',
        {
          method: 'POST',
          url: '/api/login',
          payload: JSON.stringify({ username: 'x'.repeat(300 * 1024), password: 'abcdefg' }),
          headers: { 'content-type': 'application/json' },
        },
        413,
        true,
      ],
      [
        'an unsupported content type',
        {
          method: 'POST',
          url: '/api/login',
          payload: '<x/>',
          headers: { 'content-type': 'application/xml' },
        },
        415,
        true,
      ],
      [
        'cross-site refusal',
        { method: 'POST', url: '/api/logout', headers: { 'sec-fetch-site': 'cross-site' } },
        403,
        true,
      ],
      ['the API reader', { url: '/api/docs' }, 200, true],
      ['the API reader, trailing slash', { url: '/api/docs/' }, 200, true],
      ['the API reader document', { url: '/api/docs/json' }, 200, true],
      ['OPTIONS', { method: 'OPTIONS', url: '/api/user' }, 401, true],
    ];
    const problems: string[] = [];
    for (const [label, request, status, api] of cases) {
      const response = await t.app.inject(request);
      counted.headerAnswers++;
      if (response.statusCode !== status)
        problems.push(`${label}: status ${response.statusCode}, expected ${status}`);
      problems.push(...hardened(response, label, api));
    }
    expect(problems, problems.join('\n')).toEqual([]);
    const asset = await t.app.inject({ url: '/assets/app-3f9a1c.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('are on a 429 and on a 5xx answer too', async () => {
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) {
      await send(t, 'POST', '/api/login', {
        payload: { username: 'headers-429@example.org', password: 'wrong-guess' },
        address: '10.6.0.1',
      });
    }
    const tooMany = await send(t, 'POST', '/api/login', {
      payload: { username: 'headers-429@example.org', password: 'wrong-guess' },
      address: '10.6.0.1',
    });
    expect(tooMany.statusCode).toBe(429);
    expect(hardened(tooMany, '429', true)).toEqual([]);

    // a real fault: the notes table is briefly gone
    const staffCookie = await signInStaff();
    await t.ctx.db.execute(sql`alter table staff_notes rename to staff_notes_away`);
    try {
      const broken = await send(t, 'GET', '/api/staff/notes?date=2026-12-01', { cookie: staffCookie });
      expect(broken.statusCode).toBe(500);
      expect(broken.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
      expect(hardened(broken, '500', true)).toEqual([]);
    } finally {
      await t.ctx.db.execute(sql`alter table staff_notes_away rename to staff_notes`);
    }
  });

  it('session cookies are HttpOnly, SameSite=Lax and Secure exactly when they should be', async () => {
    const issue = async (app: TestApp, headers: Record<string, string> = {}) => {
      const out: string[] = [];
      const collect = (response: LightMyRequestResponse) => {
        const cookies = [response.headers['set-cookie'] ?? []].flat();
        // every session cookie comes with its sign-in hint (same flags bar HttpOnly, value "1" or "")
        const hints = cookies.filter((c) => c.startsWith(`${SESSION_HINT_COOKIE}=`));
        const sessions = cookies.filter((c) => !hints.includes(c));
        expect(hints).toHaveLength(sessions.length);
        for (const hint of hints) {
          expect(hint).toMatch(/^afp_signed_in=1?;/);
          expect(hint).not.toMatch(/HttpOnly/);
          expect(hint).toMatch(/SameSite=Lax/);
          expect(/; Secure/.test(hint)).toBe(/; Secure/.test(sessions[0]!));
        }
        out.push(...sessions);
        return response;
      };
      const user = await app.createUser({
        username: `cookie-${out.length}-${w.clock}@example.org`,
        password: 'cookie-pass-1',
      });
      const login = collect(
        await send(app, 'POST', '/api/login', {
          payload: { username: user.username, password: 'cookie-pass-1' },
          headers,
        }),
      );
      collect(await send(app, 'POST', '/api/auth/staff-login', { payload: STAFF, headers }));
      collect(
        await send(app, 'POST', '/api/register', {
          payload: { username: `reg-${w.clock}-${Math.random()}@example.org`, password: 'cookie-pass-1' },
          headers,
        }),
      );
      const changed = collect(
        await send(app, 'PUT', '/api/user/password', {
          cookie: cookieHeader(login),
          payload: { currentPassword: 'cookie-pass-1', newPassword: 'cookie-pass-2' },
          headers,
        }),
      );
      collect(await send(app, 'POST', '/api/logout', { cookie: cookieHeader(changed), headers }));
      expect(out).toHaveLength(5);
      return out;
    };

    for (const cookie of await issue(t, { 'x-forwarded-proto': 'https' })) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      // COOKIE_SECURE=auto over plain HTTP, and X-Forwarded-Proto is not believed without TRUST_PROXY
      expect(cookie).not.toMatch(/Secure/);
      expect(cookie).toMatch(/^afp_session=/);
    }
    for (const cookie of await issue(secure)) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/; Secure/);
      // always on TLS: the __Host- prefix, so no subdomain or plain-http page can set or replace it
      expect(cookie).toMatch(/^__Host-afp_session=/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    }
    // HSTS only where TLS is promised
    expect((await send(secure, 'GET', '/api/health')).headers['strict-transport-security']).toBeDefined();
    expect((await send(t, 'GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
  });

  it('forms may post only to the portal, and be redirected on only to the sign-in authority', async () => {
    const csp = String((await send(t, 'GET', '/api/health')).headers['content-security-policy']);
    const formAction = /form-action ([^;]*)/.exec(csp)?.[1];
    expect(formAction).toBe(`'self' ${new URL(t.config.AUTHORITY_HOST).origin}`);
  });

  it('a PUBLIC_URL on https promises TLS: HSTS, Secure __Host- session cookies; an unprefixed cookie counts for nothing', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://portal.example.org' });
    try {
      const health = await send(https, 'GET', '/api/health');
      expect(health.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      // over plain http behind a proxy that is not trusted: people still open the https address
      const login = await send(https, 'POST', '/api/auth/staff-login', { payload: STAFF });
      const session = login.cookies.find((c) => c.name === '__Host-afp_session');
      expect(session).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(login.cookies.find((c) => c.name === 'afp_session')).toBeUndefined();
      const me = (cookie: string) => send(https, 'GET', '/api/user', { cookie });
      expect((await me(`__Host-afp_session=${session!.value}`)).statusCode).toBe(200);
      // a cookie of the plain name, as a subdomain or an http page could plant, is not a session here
      expect((await me(`afp_session=${session!.value}`)).statusCode).toBe(401);
    } finally {
      await https.close();
    }
  });
});
