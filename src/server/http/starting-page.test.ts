import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { answerWhileStarting } from './starting-page';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function appWithoutClient(clientBuilding: boolean): Promise<{ app: TestApp; clientDir: string }> {
  const parent = mkdtempSync(join(tmpdir(), 'afp-starting-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const clientDir = join(parent, 'client');
  const app = await createTestApp({ CLIENT_DIR: clientDir }, { clientBuilding });
  cleanups.push(() => app.close());
  return { app, clientDir };
}

/** A finished build moved into place the way start.mjs does it: written elsewhere, then renamed. */
function moveBuildIn(clientDir: string) {
  const next = `${clientDir}-next`;
  mkdirSync(join(next, 'assets'), { recursive: true });
  writeFileSync(
    join(next, 'index.html'),
    '<!doctype html><html><head><title>the built client</title></head><body></body></html>',
  );
  writeFileSync(join(next, 'assets', 'main-abc123.js'), 'console.log("built");');
  renameSync(next, clientDir);
}

// one app for the whole build: starting first, then the build arrives (the tests run in order)
describe('pages while npm start builds the client beside the server', () => {
  let app: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    ({ app, clientDir } = await appWithoutClient(true));
  });

  it('says the portal is starting and reloads, while the API answers as usual', async () => {
    for (const url of ['/', '/auth', '/staff', '/assets/main-abc123.js']) {
      const page = await app.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers.refresh).toBe('2');
      expect(page.headers['retry-after']).toBe('2');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<h1>The portal is starting</h1>');
    }
    const user = await app.app.inject({ method: 'GET', url: '/api/user' });
    expect(user.statusCode).toBe(401);
    expect(user.json()).toEqual({ message: 'Please sign in to continue' });
    const cookie = await app.loginStaff();
    const me = await app.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
  });

  it('serves the client as soon as the build is in place, without a restart', async () => {
    expect((await app.app.inject({ method: 'GET', url: '/auth' })).statusCode).toBe(503);
    moveBuildIn(clientDir);
    const page = await app.app.inject({ method: 'GET', url: '/auth' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>the built client</title>');
    const script = await app.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('console.log("built");');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves a signed-in person the built page, and still knows who asks on unknown API paths', async () => {
    const cookie = await app.loginStaff();
    const page = await app.app.inject({ method: 'GET', url: '/staff', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>the built client</title>');
    // signed in: an unknown API path is not found, not "Please sign in"
    const unknown = await app.app.inject({ method: 'GET', url: '/api/no-such-list', headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('a missing client without a build under way', () => {
  let app: TestApp;
  beforeAll(async () => {
    ({ app } = await appWithoutClient(false));
  });

  it('is not presented as starting', async () => {
    const page = await app.app.inject({ method: 'GET', url: '/auth' });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('The portal is starting');
  });
});

/** A server answering as serve.ts's does before the app exists, listening on a free local port. */
async function startingServer(): Promise<{ server: Server; url: string }> {
  const server = createServer(answerWhileStarting);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the server before the app is ready (the database still opening)', () => {
  it('answers every request at once with a 503 that says so, a page for pages and JSON for the API', async () => {
    const { server, url } = await startingServer();
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const path of ['/', '/staff-login', '/assets/main-abc123.js']) {
      const page = await fetch(`${url}${path}`);
      expect(page.status, path).toBe(503);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('refresh')).toBe('2');
      expect(page.headers.get('retry-after')).toBe('2');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await page.text()).toContain('<h1>The portal is starting</h1>');
    }
    for (const [method, path] of [
      ['GET', '/api/health'],
      ['GET', '/api/user'],
      ['POST', '/api/login'],
    ] as const) {
      const api = await fetch(`${url}${path}`, {
        method,
        ...(method === 'POST' ? { body: '{"username":"a","password":"b"}' } : {}),
      });
      expect(api.status, path).toBe(503);
      expect(api.headers.get('retry-after')).toBe('2');
      expect(api.headers.get('refresh')).toBeNull();
      expect(await api.json()).toEqual({ message: 'The portal is starting; try again in a moment' });
    }
  });

  it('hands the same listening server to the app once it is ready, and the app closes it', async () => {
    const { server, url } = await startingServer();
    // a connection kept open from the starting answer is served by the app afterwards
    const before = await fetch(`${url}/api/health`);
    expect(before.status).toBe(503);
    const app = await createTestApp({}, { server });
    try {
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      const user = await fetch(`${url}/api/user`);
      expect(user.status).toBe(401);
      expect(await user.json()).toEqual({ message: 'Please sign in to continue' });
      expect(user.headers.get('content-security-policy')).toContain("script-src 'self'");
    } finally {
      await app.close();
    }
    expect(server.listening).toBe(false);
  });
});
