import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendRemindersResponse } from '../../shared/schemas/reminders';
import { reminderSettings } from '../db/schema';
import {
  BlockedAddressError,
  isAllowedAddress,
  isPublicAddress,
  pinAllowedAddress,
} from '../outbound-address';
import { createTestApp, type TestApp } from '../test/harness';
import { startTestSmtpServer, type TestSmtpServer } from './test-smtp';
import { MAIL_ERRORS, openMailer } from './transport';

/*
 * The SMTP host is staff's to type, so the portal must not let it reach its own network. This app has
 * no SMTP_ALLOWED_NETWORKS: every local or private address is refused before a connection is made,
 * which a listening server on 127.0.0.1 (counting every connection it sees) proves.
 */
let t: TestApp;
let staffCookie: string;
let franId: number;
let listener: Server;
let listenerPort: number;
let connections = 0;
const sockets = new Set<import('node:net').Socket>();
const servers: TestSmtpServer[] = [];

// This file sends reminders many times over, one transport case each, on a clock that stands still;
// the send budget itself is tested in http/request-limits.test.ts.
beforeAll(async () => {
  t = await createTestApp(
    {
      PUBLIC_URL: 'https://portal.example.org',
      SMTP_TIMEOUT_SECONDS: '3',
      REQUEST_BUDGETS: 'remindersSend=10000',
    },
    { now: () => new Date('2026-11-23T10:00:00Z') },
  );
  staffCookie = await t.loginStaff();
  franId = (await t.createUser({ username: 'fran@example.org', email: 'fran@example.org' })).id;
  listener = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.end('220 listener ready\r\n');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await Promise.all(servers.map((s) => s.close()));
  await t.close();
});

const saveHost = (host: string, port = listenerPort) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/staff/reminders/settings',
    headers: { cookie: staffCookie },
    payload: {
      host,
      port,
      security: 'none',
      username: '',
      password: '',
      fromAddress: 'portal@example.org',
      autoEnabled: false,
      autoDay: 1,
      autoMonth: 'next',
    },
  });

/**
 * Send with this host in the stored settings, put there directly: saving refuses such a host, but
 * settings saved before that check, or a name whose address changed since, reach the send.
 */
async function sendWithHost(host: string, port = listenerPort): Promise<SendRemindersResponse> {
  const values = { smtpHost: host, smtpPort: port, smtpSecurity: 'none', fromAddress: 'portal@example.org' };
  await t.ctx.db
    .insert(reminderSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: reminderSettings.id, set: values });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/staff/reminders/send',
    headers: { cookie: staffCookie },
    payload: { month: '2026-12', userIds: [franId] },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SendRemindersResponse;
}

describe('the SMTP host cannot aim at the portal’s own network', () => {
  it.each([
    ['127.0.0.1'],
    ['localhost'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['2130706433'],
    ['::1'],
    ['169.254.169.254'],
    ['64:ff9b::a9fe:a9fe'],
    ['10.1.2.3'],
    ['192.168.0.1'],
    ['0.0.0.0'],
    ['fe80::1'],
    ['fd00::1'],
    ['224.0.0.1'],
  ])(
    '%s: refused on save naming the host and the setting, and at a send, with no connection',
    async (host) => {
      const before = connections;
      const saved = await saveHost(host);
      expect(saved.statusCode, saved.body).toBe(400);
      expect(saved.json().fieldErrors.host[0]).toContain(host);
      expect(saved.json().message).toMatch(/SMTP_ALLOWED_NETWORKS/);
      const result = await sendWithHost(host);
      expect(result).toMatchObject({ sent: 0, failed: 1 });
      expect(result.results[0]!.reason).toBe(MAIL_ERRORS.blocked);
      expect(connections).toBe(before);
    },
  );

  it('the listener is reachable when the operator allows loopback (so the refusals above are the check, not the network)', async () => {
    const before = connections;
    const mailer = await openMailer(
      { host: '127.0.0.1', port: listenerPort, security: 'none', username: '', password: '' },
      { allowedNetworks: ['127.0.0.0/8'], connectionTimeoutMs: 3000 },
    );
    // the listener says hello and hangs up: a failure, but after a connection
    await expect(mailer.verify()).rejects.toBeTruthy();
    mailer.close();
    expect(connections).toBe(before + 1);
  });
});

describe('one resolution per run, and the connection goes to the address that was checked', () => {
  it('a name is resolved once, checked, and connected to at that address (no second lookup to rebind)', async () => {
    const smtp = await startTestSmtpServer();
    servers.push(smtp);
    const lookups: string[] = [];
    const mailer = await openMailer(
      // a name no real resolver knows: the connection can only work through the pinned address
      { host: 'mail.rebinding.invalid', port: smtp.port, security: 'none', username: '', password: '' },
      {
        allowedNetworks: ['127.0.0.1/32'],
        lookup: async (host) => {
          lookups.push(host);
          return lookups.length === 1 ? ['127.0.0.1'] : ['169.254.169.254'];
        },
      },
    );
    await mailer.verify();
    await mailer.send({
      from: { name: 'Portal', address: 'portal@example.org' },
      to: 'fran@example.org',
      subject: 'Pinned',
      text: 'pinned',
      html: '<p>pinned</p>',
    });
    mailer.close();
    expect(lookups).toEqual(['mail.rebinding.invalid']);
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Pinned']);
  });

  it('a name with a private and a public address keeps the public one; with only private ones it is refused', async () => {
    const both = await pinAllowedAddress('mixed.example', [], async () => ['10.0.0.5', '203.0.114.7']);
    expect(both).toEqual({ address: '203.0.114.7', servername: 'mixed.example' });
    await expect(
      pinAllowedAddress('inside.example', [], async () => ['169.254.169.254', 'fd00::1']),
    ).rejects.toBeInstanceOf(BlockedAddressError);
    const literal = await pinAllowedAddress('[2606:4700::1]', [], async () => {
      throw new Error('an address is not looked up');
    });
    expect(literal).toEqual({ address: '2606:4700::1', servername: undefined });
  });
});

describe('address classes', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['224.0.0.251', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    ['192.0.2.10', false],
    ['198.18.0.1', false],
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b:1::1', false],
    ['2002:7f00:1::1', false],
    ['2001:0::1', false],
    ['100::1', false],
    ['not an address', false],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('the operator’s networks open exactly those addresses, of the same family', () => {
    const networks = ['10.20.0.0/16', '::1/128'];
    expect(isAllowedAddress('10.20.3.4', networks)).toBe(true);
    expect(isAllowedAddress('10.21.0.1', networks)).toBe(false);
    expect(isAllowedAddress('::1', networks)).toBe(true);
    expect(isAllowedAddress('::ffff:10.20.3.4', networks)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', networks)).toBe(false);
  });
});
