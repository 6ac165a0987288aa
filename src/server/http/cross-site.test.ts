import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STAFF, type TestApp } from '../test/harness';
import { crossSiteGuard } from './cross-site';

/*
 * A browser without Sec-Fetch-Site is judged by its Origin, which must be the portal's own origin:
 * scheme, host and port, not the host alone. With PUBLIC_URL: the real app, each request a sign-in
 * that would succeed, so anything but 403 means it was let through. Without: the same guard on a
 * bare Fastify (building a second portal costs a minute on the shared machine).
 */
const REFUSED = 'Cross-site requests are not allowed';
let withPublicUrl: TestApp;
let bare: FastifyInstance;

beforeAll(async () => {
  withPublicUrl = await createTestApp({ PUBLIC_URL: 'https://portal.example.org' });
  bare = Fastify();
  bare.addHook('onRequest', crossSiteGuard(undefined));
  bare.post('/change', async () => ({ changed: true }));
  await bare.ready();
}, 180_000);
afterAll(async () => {
  await withPublicUrl.close();
  await bare.close();
});

const signIn = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/staff-login', headers, payload: STAFF });
const change = (headers: Record<string, string>) => bare.inject({ method: 'POST', url: '/change', headers });

describe('with PUBLIC_URL: the Origin must be exactly its origin', () => {
  it.each([
    ['another scheme', 'http://portal.example.org'],
    ['another port', 'https://portal.example.org:8443'],
    ['another host', 'https://evil.example'],
    ['a sibling subdomain', 'https://www.portal.example.org'],
    ['null', 'null'],
  ])('refuses %s (%s), even when Host agrees with it', async (_what, origin) => {
    const host = origin === 'null' ? 'portal.example.org' : new URL(origin).host;
    const response = await signIn(withPublicUrl, { origin, host });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(REFUSED);
  });

  it.each([
    ['the same origin', 'https://portal.example.org'],
    ['the same origin with its default port written out', 'https://portal.example.org:443'],
  ])('accepts %s, whatever Host says', async (_what, origin) => {
    const response = await signIn(withPublicUrl, { origin, host: 'internal-name:5000' });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('without PUBLIC_URL: the Origin must be the request’s own scheme, host and port', () => {
  it.each([
    ['another scheme', 'portal.example', 'https://portal.example'],
    ['another port', 'portal.example', 'http://portal.example:8080'],
    ['no port where the request has one', 'portal.example:8080', 'http://portal.example'],
    ['another host', 'portal.example', 'http://evil.example'],
  ])('refuses %s', async (_what, host, origin) => {
    const response = await change({ origin, host });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(REFUSED);
  });

  it.each([
    ['the same origin', 'portal.example', 'http://portal.example'],
    ['the same origin and port', 'portal.example:8080', 'http://portal.example:8080'],
    ['the default port written out', 'portal.example', 'http://portal.example:80'],
  ])('accepts %s', async (_what, host, origin) => {
    const response = await change({ origin, host });
    expect(response.statusCode, response.body).toBe(200);
  });
});
