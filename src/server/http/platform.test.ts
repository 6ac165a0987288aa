import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseOfficeHours } from '../config';
import { createTestApp, type TestApp } from '../test/harness';
import { requireDeclaredAccess } from './access';

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: 'fac@example.org', password: 'fac-pass-1' });
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('fac@example.org', 'fac-pass-1');
});
afterAll(() => t.close());

describe('route-group guards', () => {
  // Every group answers for paths that later issues fill, so nothing is ever open by accident.
  it.each([
    ['GET', '/api/staff/users', 200],
    ['GET', '/api/staff/anything-not-built', 404],
    ['GET', '/api/admin/anything-not-built', 404],
    ['POST', '/api/sharepoint/anything-not-built', 404],
  ])('%s %s: anonymous 401, facilitator 403, staff %i', async (method, url, staffStatus) => {
    const anonymous = await t.app.inject({ method: method as 'GET', url });
    const facilitator = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: facilitatorCookie },
    });
    const staff = await t.app.inject({ method: method as 'GET', url, headers: { cookie: staffCookie } });
    expect(anonymous.statusCode).toBe(401);
    expect(facilitator.statusCode).toBe(403);
    expect(staff.statusCode).toBe(staffStatus);
  });

  it('signed-in-only API paths are 401 for anonymous callers', async () => {
    expect((await t.app.inject({ url: '/api/something-else' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/something-else', headers: { cookie: facilitatorCookie } })).statusCode,
    ).toBe(404);
  });

  it('refuses a route that forgets to say who may call it', () => {
    expect(() => requireDeclaredAccess({ method: 'GET', url: '/api/unguarded' })).toThrow(
      /does not declare who may call it/,
    );
    expect(() =>
      requireDeclaredAccess({ method: 'GET', url: '/api/guarded', config: { access: 'user' } }),
    ).not.toThrow();
  });
});

// Security headers on every response: sessions-headers.test.ts
describe('platform', () => {
  it('reports health with the database checked', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document and its reader', async () => {
    const document = await t.app.inject({ url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    const spec = document.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/auth/staff-login', '/api/user', '/api/staff/users']),
    );
    const docs = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('compresses answers over 1 KiB for clients that accept it, and leaves small ones alone', async () => {
    const url = '/api/openapi.json';
    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const packed = await t.app.inject({ url, headers: { 'accept-encoding': encoding } });
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/accept-encoding/i);
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(decode(packed.rawPayload).toString()).toBe(plain.body);
    }
    // per-user API answers keep out of shared caches: lists are private and revalidated by ETag
    // (ADR 81), everything else is no-store
    const users = await t.app.inject({
      url: '/api/staff/users',
      headers: { cookie: staffCookie, 'accept-encoding': 'gzip' },
    });
    expect(users.headers['cache-control']).toBe('private, no-cache');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: staffCookie } });
    expect(me.headers['cache-control']).toBe('no-store');
    const small = await t.app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('refuses a body over the limit with 413 and a message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: JSON.stringify({ username: 'x'.repeat(300 * 1024), password: 'abcdefg' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request is too large' });
  });

  it('refuses an unsupported content type with a message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: 'username=a',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toHaveProperty('message');
  });

  it('answers a failure inside with a 500 that shows no internals, and health says 503', async () => {
    const broken = await createTestApp();
    const cookie = await broken.loginStaff();
    await broken.ctx.database.close();
    const response = await broken.app.inject({ url: '/api/staff/users', headers: { cookie: cookie } });
    expect(response.statusCode).toBeGreaterThanOrEqual(500);
    expect(response.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    expect(response.body).not.toMatch(/pglite|drizzle|select|stack|at /i);
    expect((await broken.app.inject({ url: '/api/health' })).statusCode).toBe(503);
    await broken.app.close();
  });
});

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 5000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      ORG_TIMEZONE: 'Europe/London',
      BOOKINGS_REFRESH_MINUTES: 15,
      ALLOW_REGISTRATION: false,
      COOKIE_SECURE: 'auto',
      TRUST_PROXY: false,
    });
    expect(config.GRAPH_BASE_URL).toBe('https://graph.microsoft.com/v1.0');
    expect(config.AUTHORITY_HOST).toBe('https://login.microsoftonline.com');
    expect(config.OFFICE_HOURS).toEqual({ days: [1, 2, 3, 4, 5], startMinute: 480, endMinute: 1080 });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ ORG_TIMEZONE: 'Mars/Olympus' }, 'ORG_TIMEZONE'],
    [{ OFFICE_HOURS: 'weekdays' }, 'OFFICE_HOURS'],
    [{ OFFICE_HOURS: 'Mon-Fri 18:00-08:00' }, 'OFFICE_HOURS'],
    [{ BOOKINGS_REFRESH_MINUTES: '0' }, 'BOOKINGS_REFRESH_MINUTES'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
    [{ ALLOW_REGISTRATION: 'maybe' }, 'ALLOW_REGISTRATION'],
    [{ COOKIE_SECURE: 'sometimes' }, 'COOKIE_SECURE'],
    [{ GRAPH_BASE_URL: 'not a url' }, 'GRAPH_BASE_URL'],
    [{ INITIAL_STAFF_USERNAME: 'boss' }, 'INITIAL_STAFF_PASSWORD'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.example.org' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    // everyone, in other words
    [{ TRUST_PROXY: '0.0.0.0/0,::/0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0.0.0.0/0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '::/0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.5,::ffff:0.0.0.0/96' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '2000::/3' }, 'TRUST_PROXY'],
    [{ CLIENT_DIR: 'package.json' }, 'CLIENT_DIR'],
  ])('names the bad variable in %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('trusts a number of proxy hops or a list of proxies, never every hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
    ]);
    // the message says what to give instead
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/number of proxies/);
    expect(() => loadConfig({ TRUST_PROXY: '0.0.0.0/0,::/0' })).toThrow(/as true would/);
    // a proxy network, private or a provider's own, is fine
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8,172.64.0.0/13,fc00::/7,2606:4700::/32,fe80::/10' }).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '172.64.0.0/13', 'fc00::/7', '2606:4700::/32', 'fe80::/10']);
  });

  it('serves the client from a CLIENT_DIR written relative to where the portal starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'afp-client-dir-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Relative client</title>');
    const relativeDir = relative(process.cwd(), dir);
    expect(relativeDir.startsWith('/')).toBe(false);
    expect(loadConfig({ CLIENT_DIR: relativeDir }).CLIENT_DIR).toBe(dir);
    const app = await createTestApp({ CLIENT_DIR: relativeDir });
    try {
      const page = await app.app.inject({ url: '/auth' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Relative client');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true });
    }
    // the default, written out, from the project directory
    expect(loadConfig({ CLIENT_DIR: 'dist/client' }).CLIENT_DIR).toBe(join(process.cwd(), 'dist/client'));
  });

  it('reads office hours with ranges, lists and wrap-around', () => {
    expect(parseOfficeHours('Mon,Wed,Fri 09:00-17:30')).toEqual({
      days: [1, 3, 5],
      startMinute: 540,
      endMinute: 1050,
    });
    expect(parseOfficeHours('Sat-Mon 10:00-12:00')).toEqual({
      days: [0, 1, 6],
      startMinute: 600,
      endMinute: 720,
    });
    expect(typeof parseOfficeHours('Funday 09:00-10:00')).toBe('string');
  });
});
