import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_INIT_SCRIPT } from '../../shared/theme-init-script';
import { createTestApp, type TestApp } from '../test/harness';

// A built page as the build writes it: the theme script inline at the top of the head.
const INDEX = `<!doctype html><html><head><script>${THEME_INIT_SCRIPT}</script><title>portal</title><meta name="description" content="${'a page long enough to be worth compressing '.repeat(30)}"></head><body><div id="root"></div></body></html>`;

let app: TestApp;
let dir: string;
let staff: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'afp-page-html-'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  app = await createTestApp({ CLIENT_DIR: dir });
  staff = await app.loginStaff();
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string>) => app.app.inject({ method: 'GET', url, headers });

describe("a page's HTML", () => {
  it('goes out compressed with Brotli or gzip, whichever the browser accepts, and reads back the same', async () => {
    for (const [url, cookie] of [
      ['/auth', undefined],
      ['/staff/users', staff],
    ] as const) {
      const plain = await get(url, { ...(cookie ? { cookie } : {}), 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<div id="root">');

      const br = await get(url, { ...(cookie ? { cookie } : {}), 'accept-encoding': 'gzip, deflate, br' });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);

      const gzip = await get(url, { ...(cookie ? { cookie } : {}), 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('is allowed its inline theme script by hash, and no other inline script', async () => {
    const page = await get('/auth', {});
    const csp = String(page.headers['content-security-policy']);
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    const inline = [...page.body.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toEqual([THEME_INIT_SCRIPT]);
    const hash = `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
    expect(scriptSrc.split(' ').sort()).toEqual(["'self'", hash].sort());
    expect(scriptSrc).not.toContain('unsafe');
    expect(csp).toContain("script-src-attr 'none'");
  });
});
