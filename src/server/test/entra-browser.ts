/**
 * A browser for the Microsoft sign-in tests: it calls the portal in-process, the test identity
 * provider over HTTP, and keeps both sides' cookies. Test support only.
 */
import { expect } from 'vitest';
import type { TestEntra } from './entra-provider';
import type { TestApp } from './harness';

/**
 * A browser going through the whole sign-in: the portal's start route (in-process), the identity
 * provider's pages over HTTP with their cookies kept, and back to the portal's callback.
 */
export class EntraBrowser {
  portalCookies = new Map<string, string>();
  providerCookies = new Map<string, string>();
  lastCallback = '';

  constructor(
    private app: TestApp,
    private idp: TestEntra,
    /** the portal's PUBLIC_URL: where the provider's redirects come back to */
    private portalUrl: string,
  ) {}

  portalCookieHeader() {
    return [...this.portalCookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A request to the portal with this browser's cookies: a GET, or a POST of `body` (JSON). */
  async portal(url: string, body?: Record<string, string>) {
    const response = await this.app.app.inject({
      method: body ? 'POST' : 'GET',
      url,
      headers: { cookie: this.portalCookieHeader() },
      ...(body ? { payload: body } : {}),
    });
    for (const c of response.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now()))
        this.portalCookies.delete(c.name);
      else this.portalCookies.set(c.name, c.value);
    }
    return response;
  }

  /** Follow the provider's redirects until it sends the browser back to the portal. */
  async throughProvider(start: string): Promise<string> {
    let location = start;
    for (let hop = 0; hop < 20; hop++) {
      if (location.startsWith(this.portalUrl)) return location.slice(this.portalUrl.length);
      const response = await fetch(location, {
        redirect: 'manual',
        headers: { cookie: [...this.providerCookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(';');
        const [key, ...value] = (pair ?? '').split('=');
        const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a));
        if (!key) continue;
        if (expired || value.join('=') === '') this.providerCookies.delete(key.trim());
        else this.providerCookies.set(key.trim(), value.join('='));
      }
      const next = response.headers.get('location');
      if (!next)
        throw new Error(`provider stopped at ${location}: ${response.status} ${await response.text()}`);
      location = new URL(next, location).toString();
    }
    throw new Error('too many redirects');
  }

  /** The login page's "Sign in with Microsoft" form, posted: the portal's answer (a redirect). */
  start(options: { invitation?: string; page?: 'staff' | 'facilitator' } = {}) {
    const body: Record<string, string> = {};
    if (options.invitation) body.invitation = options.invitation;
    if (options.page) body.page = options.page;
    return this.portal('/api/auth/microsoft/start', body);
  }

  /** Start (optionally from an invitation) and come back; returns the portal's final answer. */
  async signIn(options: { invitation?: string; as?: string; page?: 'staff' | 'facilitator' }) {
    this.idp.nextSignIn = options.as;
    const start = await this.start(options);
    expect(start.statusCode).toBe(302);
    const location = String(start.headers.location);
    if (!location.startsWith(this.idp.authorityHost)) return start;
    this.lastCallback = await this.throughProvider(location);
    return this.portal(this.lastCallback);
  }
}
