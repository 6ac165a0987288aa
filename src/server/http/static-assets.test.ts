import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/sessions';
import { sessions } from '../db/schema';
import { createTestApp, type TestApp } from '../test/harness';

// A stand-in client build: one script with the .br/.gz copies the build writes, one without.
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
// quality 11 and level 9: not what the server would produce on the fly, so the bytes tell them apart
const prepared = { br: brotliCompressSync(script), gzip: gzipSync(script, { level: 9 }) };
let clientDir: string;
let t: TestApp;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'afp-static-'));
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><title>Facilitator Availability Calendar</title>',
  );
  writeFileSync(join(clientDir, 'assets', 'packed-1a2b3c.js'), script);
  writeFileSync(join(clientDir, 'assets', 'packed-1a2b3c.js.br'), prepared.br);
  writeFileSync(join(clientDir, 'assets', 'packed-1a2b3c.js.gz'), prepared.gzip);
  writeFileSync(join(clientDir, 'assets', 'plain-4d5e6f.js'), script);
  t = await createTestApp({ CLIENT_DIR: clientDir });
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('built assets', () => {
  it('sends the build-time Brotli and gzip copies to clients that accept them', async () => {
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await t.app.inject({
        url: '/assets/packed-1a2b3c.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload).toString()).toBe(script);
      expect(response.rawPayload.equals(prepared[encoding])).toBe(true);
    }
  });

  it('sends the file itself to clients that accept no encoding', async () => {
    const response = await t.app.inject({ url: '/assets/packed-1a2b3c.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(script);
  });

  it('still compresses an asset that has no prepared copy', async () => {
    const response = await t.app.inject({
      url: '/assets/plain-4d5e6f.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });
});

describe('a built file that is not there', () => {
  it('is a 404, not the page: a tab opened before a deploy asks for the old build', async () => {
    for (const url of ['/assets/packed-0ld0ld.js', '/assets/nested/gone.css']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/json/);
      expect(response.json()).toEqual({ message: 'Not found' });
    }
    // beside it, an unknown path that is not a built file is still the single-page app's to answer
    const page = await t.app.inject({ url: '/somewhere/else' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
  });
});

describe('a signed-in browser asking for a file', () => {
  it('gets it without its session being read: the file does not keep the session alive, the app does', async () => {
    await t.createUser({ username: 'files@example.org', password: 'files-pass-1' });
    const cookie = await t.login('files@example.org', 'files-pass-1');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    await t.ctx.db.update(sessions).set({ lastSeenAt: tenMinutesAgo });
    const lastSeen = async () => (await t.ctx.db.select({ at: sessions.lastSeenAt }).from(sessions))[0]!.at;

    const file = await t.app.inject({ url: '/assets/packed-1a2b3c.js', headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(script);
    expect(await lastSeen()).toEqual(tenMinutesAgo);

    // a read of the app itself does read the session, and moves its last-seen time on
    const me = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect((await lastSeen()).getTime()).toBeGreaterThan(tenMinutesAgo.getTime());
  });

  it('gets it whatever the cookie holds', async () => {
    const response = await t.app.inject({
      url: '/assets/packed-1a2b3c.js',
      headers: { cookie: `${SESSION_COOKIE}=${'x'.repeat(500)}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(script);
  });
});
