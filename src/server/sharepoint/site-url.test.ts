import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from './graph-client';

/*
 * The site URL is typed by staff and ends up inside Graph request paths; stored next and delta links
 * are followed verbatim. Neither may send the portal's bearer token anywhere but below
 * GRAPH_BASE_URL. Two real servers on 127.0.0.1 record what reaches them: "graph" (the base) and
 * "elsewhere".
 */
interface Recorder {
  server: Server;
  url: string;
  seen: { path: string; authorization: string | undefined }[];
}

async function recorder(): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 'contoso.sharepoint.com,site-guid,web-guid', value: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let graph: Recorder;
let elsewhere: Recorder;
let client: GraphClient;

beforeAll(async () => {
  graph = await recorder();
  elsewhere = await recorder();
  client = new GraphClient({
    graphBaseUrl: `${graph.url}/v1.0`,
    tokens: { getToken: async () => 'portal-token' },
    userAgent: 'test',
    timings: { maxAttempts: 1 },
  });
});
afterAll(async () => {
  for (const r of [graph, elsewhere]) await new Promise<void>((resolve) => r.server.close(() => resolve()));
});

describe('a site URL stays a site below GRAPH_BASE_URL', () => {
  it('an ordinary site URL becomes a /sites request below the base', async () => {
    graph.seen.length = 0;
    await client.resolveSite('https://contoso.sharepoint.com/sites/arts');
    expect(graph.seen.map((r) => r.path)).toEqual(['/v1.0/sites/contoso.sharepoint.com:/sites/arts']);
  });

  it.each([
    ['encoded dot segments', 'https://contoso.sharepoint.com/sites/%2e%2e/%2e%2e/%2e%2e/users'],
    ['an encoded slash and dots', 'https://contoso.sharepoint.com/sites/..%2f..%2f..%2fme'],
    ['a doubly encoded dot segment', 'https://contoso.sharepoint.com/sites/%252e%252e/%252e%252e/me'],
    ['a host of dots', 'https://../sites/arts'],
    ['a host of dots and no path', 'https://..'],
  ])('%s: nothing is sent outside /v1.0/sites/', async (_what, siteUrl) => {
    graph.seen.length = 0;
    await client.resolveSite(siteUrl).catch(() => undefined);
    expect(graph.seen.filter((r) => !r.path.startsWith('/v1.0/sites/'))).toEqual([]);
  });

  it('a host name that is no host name is refused before anything is sent', async () => {
    graph.seen.length = 0;
    await expect(client.resolveSite('https://../sites/arts')).rejects.toMatchObject({
      kind: 'not-configured',
    });
    expect(graph.seen).toEqual([]);
  });
});

describe('links are followed only below GRAPH_BASE_URL', () => {
  it.each([
    ['another host', () => `${elsewhere.url}/v1.0/sites/x/lists`],
    ['the same host, outside the base path', () => `${graph.url}/beta/me`],
    ['the base path climbed out of', () => `${graph.url}/v1.0/../beta/me`],
    ['the base path climbed out of, encoded', () => `${graph.url}/v1.0/%2e%2e/beta/me`],
  ])('a link to %s is refused and the token goes nowhere', async (_what, link) => {
    graph.seen.length = 0;
    elsewhere.seen.length = 0;
    await expect(client.get(link())).rejects.toMatchObject({ kind: 'not-configured' });
    expect(graph.seen).toEqual([]);
    expect(elsewhere.seen).toEqual([]);
  });

  it('a link below the base is followed', async () => {
    graph.seen.length = 0;
    await client.get(`${graph.url}/v1.0/sites/x/lists?$skiptoken=abc`);
    expect(graph.seen).toEqual([
      { path: '/v1.0/sites/x/lists?$skiptoken=abc', authorization: 'Bearer portal-token' },
    ]);
  });
});
