/**
 * What the Sign in with Microsoft tests share, staff and facilitator alike: a portal configured for
 * the test identity provider, the invitation staff make, and what a browser sees coming back. Test
 * support only.
 */
import { expect } from 'vitest';
import type { EntraBrowser } from './entra-browser';
import type { TestEntra } from './entra-provider';
import { createTestApp, type TestApp } from './harness';

/** The portal's PUBLIC_URL in these tests: the identity provider redirects there, nothing listens. */
export const SIGN_IN_PORTAL = 'http://127.0.0.1:9';
/** The app role the tests give staff accounts in the directory. */
export const STAFF_APP_ROLE = 'Portal.Staff';

/** A portal signing in at this identity provider with its client secret, staff password sign-in on. */
export function signInTestApp(
  entra: TestEntra,
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<TestApp> {
  return createTestApp(
    {
      PUBLIC_URL: SIGN_IN_PORTAL,
      AUTHORITY_HOST: entra.authorityHost,
      ENTRA_TENANT_ID: entra.tenantId,
      ENTRA_CLIENT_ID: entra.clientId,
      ENTRA_CLIENT_SECRET: entra.clientSecret,
      ...env,
    },
    options,
  );
}

/** Staff invite the account: the link the answer carries, on the portal's public address. */
export async function invitationLink(app: TestApp, staffCookie: string, userId: number): Promise<URL> {
  const response = await app.app.inject({
    method: 'POST',
    url: `/api/staff/users/${userId}/microsoft-invitation`,
    headers: { cookie: staffCookie },
  });
  expect(response.statusCode, response.body).toBe(201);
  const link = new URL(response.json<{ link: string }>().link);
  expect(link.origin).toBe(SIGN_IN_PORTAL);
  return link;
}

/** The invitation token a link carries, in its fragment (never sent to a server). */
export function invitationTokenOf(link: URL | string): string {
  return new URLSearchParams(new URL(link).hash.slice(1)).get('invitation') ?? '';
}

/** Who the browser is signed in as at the portal, or null. */
export async function whoAmI(browser: EntraBrowser) {
  const response = await browser.portal('/api/user');
  return response.statusCode === 200 ? response.json<{ id: number; username: string; role: string }>() : null;
}

/** Where the portal sent the browser back to, and the reason it gives there. */
export function landing(response: { headers: Record<string, unknown> }) {
  const url = new URL(String(response.headers.location), SIGN_IN_PORTAL);
  return { path: url.pathname, error: url.searchParams.get('microsoftError') };
}
