/** Shared by the emulator's tests: real HTTP calls with fetch, no shortcuts into the server. */
import { GRAPH_SCOPE } from './auth';
import type { PortalSite, PortalSiteOptions } from './fixtures';
import { type RunningEmulator, startEmulator } from './index';
import type { EmulatorOptions } from './server';

export interface TestContext {
  emu: RunningEmulator;
  portal: PortalSite;
  token: string;
  /** GET/POST/… a Graph path (relative to the base URL) or an absolute URL, with the bearer token. */
  graph(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  /** `/sites/{siteId}/lists/{listId}` for one of the seeded lists. */
  listPath(key: keyof PortalSite['lists']): string;
}

export async function requestToken(
  emu: RunningEmulator,
  form: Record<string, string>,
  tenant = emu.control.credentials.tenantId,
): Promise<Response> {
  return fetch(`${emu.authorityHost}/${tenant}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

export async function clientCredentialsToken(emu: RunningEmulator): Promise<string> {
  const { clientId, clientSecret } = emu.control.credentials;
  const res = await requestToken(emu, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope: GRAPH_SCOPE,
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function setup(
  options: EmulatorOptions = {},
  seed: PortalSiteOptions = { seed: 'test', bookingCount: 40 },
): Promise<TestContext> {
  const emu = await startEmulator(options);
  const portal = emu.control.seedPortalSite(seed);
  const ctx: TestContext = {
    emu,
    portal,
    token: await clientCredentialsToken(emu),
    graph(pathOrUrl, init = {}) {
      const url = /^https?:/.test(pathOrUrl) ? pathOrUrl : `${emu.graphBaseUrl}${pathOrUrl}`;
      const headers = new Headers(init.headers);
      if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${ctx.token}`);
      if (init.body !== undefined && !headers.has('Content-Type'))
        headers.set('Content-Type', 'application/json');
      return fetch(url, { ...init, headers });
    },
    listPath(key) {
      const list = portal.lists[key];
      if (!list) throw new Error(`list ${key} was not seeded`);
      return `/sites/${portal.site.id}/lists/${list.id}`;
    },
  };
  return ctx;
}

/** Follows `@odata.nextLink` verbatim, collecting every page. */
export async function readAllPages(
  ctx: TestContext,
  firstUrl: string,
  init: RequestInit = {},
): Promise<{
  pages: Array<Array<Record<string, unknown>>>;
  items: Array<Record<string, unknown>>;
  last: Record<string, unknown>;
}> {
  const pages: Array<Array<Record<string, unknown>>> = [];
  let url: string | undefined = firstUrl;
  let last: Record<string, unknown> = {};
  while (url) {
    const res = await ctx.graph(url, init);
    if (res.status !== 200) throw new Error(`page failed: ${res.status} ${await res.text()}`);
    last = (await res.json()) as Record<string, unknown>;
    pages.push(last.value as Array<Record<string, unknown>>);
    url = last['@odata.nextLink'] as string | undefined;
    if (pages.length > 10_000) throw new Error('too many pages');
  }
  return { pages, items: pages.flat(), last };
}
