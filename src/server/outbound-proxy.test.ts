import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, TEST_SMTP_CERT, type TestSmtpServer } from './mail/test-smtp';
import { openMailer } from './mail/transport';
import { lookUpDirectory } from './modules/microsoft-sign-in/discovery';
import { installOutboundSettings, proxyFor } from './outbound-proxy';

/**
 * The portal behind an organisation's proxy: a CONNECT proxy and an https server whose certificate a
 * private CA signed, both started here. Every outbound HTTP call goes through Node's fetch, so the
 * calls below (fetch itself as Graph and the token endpoint make it, the directory look-up of Sign
 * in with Microsoft, openid-client's discovery) stand for all of them; email goes through nodemailer.
 */

const TENANT = '11111111-2222-3333-4444-555555555555';

interface TestCa {
  ca: string;
  cert: string;
  key: string;
}

/** A private CA and a certificate for localhost it signed. */
function makePrivateCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'afp-ca-'));
  try {
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    run(
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '2',
        '-subj',
        '/CN=Test private CA',
      ]),
    );
    run(
      ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
        '-keyout',
        'server.key',
        '-out',
        'server.csr',
        '-subj',
        '/CN=localhost',
      ]),
    );
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    run(
      ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'].concat([
        '-out',
        'server.crt',
        '-days',
        '2',
        '-extfile',
        'server.ext',
      ]),
    );
    return {
      ca: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(dir, 'server.crt'), 'utf8'),
      key: readFileSync(join(dir, 'server.key'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A proxy that tunnels CONNECT requests and remembers where each went. */
async function startConnectProxy(): Promise<{ url: string; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createHttpServer((_request, response) => {
    response.writeHead(405).end();
  });
  proxy.on('connect', (request, client: Socket, head) => {
    const target = request.url ?? '';
    tunnels.push(target);
    const at = target.lastIndexOf(':');
    const upstream = connect(
      Number(target.slice(at + 1)),
      target.slice(0, at).replace(/^\[|\]$/g, ''),
      () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await listen(proxy);
  return {
    url: `http://127.0.0.1:${port(proxy)}`,
    tunnels,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}
function port(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

let ca: TestCa;
let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
let site: Server;
let origin: string;
let restore: () => void = () => {};

beforeAll(async () => {
  ca = makePrivateCa();
  proxy = await startConnectProxy();
  site = createHttpsServer({ cert: ca.cert, key: ca.key }, (request, response) => {
    const authority = `https://localhost:${port(site)}`;
    if (request.url === `/${TENANT}/v2.0/.well-known/openid-configuration`) {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          issuer: `${authority}/${TENANT}/v2.0`,
          authorization_endpoint: `${authority}/${TENANT}/oauth2/v2.0/authorize`,
          token_endpoint: `${authority}/${TENANT}/oauth2/v2.0/token`,
          jwks_uri: `${authority}/${TENANT}/discovery/v2.0/keys`,
        }),
      );
      return;
    }
    response.end('answered by the site');
  });
  await listen(site);
  origin = `https://localhost:${port(site)}`;
});
afterEach(() => {
  restore();
  restore = () => {};
  proxy.tunnels.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => site.close(resolve));
});

describe('outbound HTTP behind a proxy', () => {
  it('goes through HTTPS_PROXY and trusts the private CA of OUTBOUND_CA_FILE', async () => {
    restore = installOutboundSettings({ HTTPS_PROXY: proxy.url, OUTBOUND_CA: ca.ca });
    const response = await fetch(`${origin}/graph`);
    expect(await response.text()).toBe('answered by the site');
    expect(proxy.tunnels).toEqual([`localhost:${port(site)}`]);
  });

  it('refuses the site without the private CA, through the proxy as well', async () => {
    restore = installOutboundSettings({ HTTPS_PROXY: proxy.url });
    await expect(fetch(`${origin}/graph`)).rejects.toThrow();
    expect(proxy.tunnels).toEqual([`localhost:${port(site)}`]);
  });

  it('goes direct to a host NO_PROXY names, still trusting the CA', async () => {
    restore = installOutboundSettings({
      HTTPS_PROXY: proxy.url,
      NO_PROXY: 'example.org, localhost',
      OUTBOUND_CA: ca.ca,
    });
    expect(await (await fetch(`${origin}/graph`)).text()).toBe('answered by the site');
    expect(proxy.tunnels).toEqual([]);
  });

  it('finds a Microsoft directory and its endpoints (Sign in with Microsoft, openid-client) through the proxy', async () => {
    restore = installOutboundSettings({ HTTPS_PROXY: proxy.url, OUTBOUND_CA: ca.ca });
    expect(await lookUpDirectory(origin, TENANT)).toEqual({ tenantId: TENANT });
    const configuration = await oidc.discovery(new URL(`${origin}/${TENANT}/v2.0`), 'client-id', 'secret');
    expect(configuration.serverMetadata().token_endpoint).toBe(`${origin}/${TENANT}/oauth2/v2.0/token`);
    expect(proxy.tunnels).toEqual([`localhost:${port(site)}`, `localhost:${port(site)}`]);
  });
});

describe('email behind a proxy', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer({ security: 'tls' });
  });
  afterAll(() => smtp.close());

  it('tunnels SMTP over TLS through HTTPS_PROXY to the checked address', async () => {
    const outcomes: string[] = [];
    const mailer = await openMailer(
      { host: 'localhost', port: smtp.port, security: 'tls', username: '', password: '' },
      {
        allowedNetworks: ['127.0.0.1/32'],
        lookup: async () => ['127.0.0.1'],
        extraCa: TEST_SMTP_CERT,
        proxy: { HTTPS_PROXY: proxy.url },
        onOutcome: (outcome) => outcomes.push(outcome),
      },
    );
    try {
      await mailer.send({
        from: { name: 'Portal', address: 'portal@example.org' },
        to: 'someone@example.org',
        subject: 'Through the proxy',
        text: 'hello',
        html: '<p>hello</p>',
      });
    } finally {
      mailer.close();
    }
    expect(smtp.messages.map((message) => message.subject)).toEqual(['Through the proxy']);
    expect(proxy.tunnels).toEqual([`127.0.0.1:${smtp.port}`]);
    // what the metrics count (afp_emails_total)
    expect(outcomes).toEqual(['sent']);
  });

  it('reads NO_PROXY as curl does', () => {
    const settings = {
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: '.example.org, mail.local:25, [::1], 10.0.0.5',
    };
    expect(proxyFor('smtp.example.org', 587, settings)).toBeNull();
    expect(proxyFor('example.org', 587, settings)).toBeNull();
    expect(proxyFor('mail.local', 25, settings)).toBeNull();
    expect(proxyFor('mail.local', 587, settings)).toBe('http://proxy:3128');
    expect(proxyFor('::1', 25, settings)).toBeNull();
    expect(proxyFor('10.0.0.5', 25, settings)).toBeNull();
    expect(proxyFor('smtp.office365.com', 587, settings)).toBe('http://proxy:3128');
    expect(proxyFor('anything', 25, { ...settings, NO_PROXY: '*' })).toBeNull();
    expect(proxyFor('anything', 25, {})).toBeNull();
  });
});
