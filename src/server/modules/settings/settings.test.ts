import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret, deriveKey } from '../../crypto';
import { sharepointSettings } from '../../db/schema';
import {
  CONNECTOR_UNAVAILABLE_MESSAGE,
  type ResolvedSharePointSettings,
  unavailableConnectionTester,
} from '../../sharepoint/connection';
import {
  loadSharePointSettings,
  STORED_ELSEWHERE_MESSAGE,
  StoredSecretError,
  sharePointDestination,
} from '../../sharepoint/settings';
import { createTestApp, type TestApp } from '../../test/harness';

const PASSWORD = 'Sp-Password-9f1c2e';
const CLIENT_SECRET = 'Client~Secret~77ab31';

const valid = {
  siteUrl: 'https://contoso.sharepoint.com/sites/arts',
  availabilityListName: 'Availability',
  bookingsListName: 'Bookings',
  facilitatorListName: 'Facilitators',
  schoolsListName: 'Schools',
  tenantId: '11111111-2222-3333-4444-555555555555',
  clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  clientSecret: CLIENT_SECRET,
  username: 'sync@contoso.org',
  password: PASSWORD,
};

const ENDPOINTS = [
  ['GET', '/api/sharepoint/settings'],
  ['POST', '/api/sharepoint/settings'],
  ['POST', '/api/sharepoint/test-connection-with-credentials'],
] as const;

/** The fallback tester (what answers when no connector is given), logs off; never reaches the network. */
let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;

/** A second app with a tester the tests steer and every log line captured. */
let t2: TestApp;
let staff2: string;
const logLines: string[] = [];
let testerSaw: ResolvedSharePointSettings[] = [];
let testerBehaviour: (s: ResolvedSharePointSettings) => Promise<{ success: boolean; message: string }>;

beforeAll(async () => {
  t = await createTestApp({}, { connectionTester: unavailableConnectionTester });
  staffCookie = await t.loginStaff();
  const fran = await t.createUser({ username: 'fran@example.org', password: 'fran-pass-1' });
  facilitatorCookie = await t.login(fran.username, fran.password);

  t2 = await createTestApp(
    { LOG_LEVEL: 'trace' },
    {
      logStream: { write: (line) => void logLines.push(line) },
      connectionTester: (settings) => {
        testerSaw.push(settings);
        return testerBehaviour(settings);
      },
    },
  );
  staff2 = await t2.loginStaff();
});
afterAll(async () => {
  await t.close();
  await t2.close();
});

const call = (app: TestApp, method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  app.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const storedRows = (app: TestApp) => app.ctx.db.select().from(sharepointSettings);

describe('authorisation', () => {
  it.each(ENDPOINTS)('%s %s: anonymous 401, facilitator 403, nothing saved', async (method, url) => {
    const payload = method === 'POST' ? valid : undefined;
    const anonymous = await call(t, method, url, undefined, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Please sign in to continue' });
    const facilitator = await call(t, method, url, facilitatorCookie, payload);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json()).toEqual({ message: 'This is for staff only' });
    expect(await storedRows(t)).toEqual([]);
  });
});

describe('before anything is saved', () => {
  it('GET answers empty strings and false flags', async () => {
    const response = await call(t, 'GET', '/api/sharepoint/settings', staffCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      siteUrl: '',
      availabilityListName: '',
      bookingsListName: '',
      facilitatorListName: '',
      schoolsListName: '',
      tenantId: '',
      clientId: '',
      username: '',
      hasPassword: false,
      hasClientSecret: false,
      passwordCleared: false,
      clientSecretCleared: false,
      hasClientCertificate: false,
      clientCertificate: null,
      clientCertificateCleared: false,
      columnMapping: {},
    });
  });

  it('loadSharePointSettings gives null', async () => {
    expect(await loadSharePointSettings(t.ctx.db, t.ctx.appSecret)).toBeNull();
  });

  it('test connection with the fallback tester says it could not connect, and why', async () => {
    const response = await call(
      t,
      'POST',
      '/api/sharepoint/test-connection-with-credentials',
      staffCookie,
      valid,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: false, message: CONNECTOR_UNAVAILABLE_MESSAGE });
    expect(CONNECTOR_UNAVAILABLE_MESSAGE).toContain('not available yet');
    // testing saves nothing
    expect(await storedRows(t)).toEqual([]);
  });
});

describe('validation of the settings fields', () => {
  it.each([
    [{ siteUrl: 'not a url' }, 'siteUrl', 'Please enter a valid SharePoint site URL'],
    [{ siteUrl: '' }, 'siteUrl', 'Please enter a valid SharePoint site URL'],
    [{ siteUrl: 'ftp://contoso.example/sites/x' }, 'siteUrl', 'Please enter a valid SharePoint site URL'],
    [{ availabilityListName: '' }, 'availabilityListName', 'Availability list name is required'],
    [{ availabilityListName: '   ' }, 'availabilityListName', 'Availability list name is required'],
    [{ bookingsListName: '' }, 'bookingsListName', 'Bookings list name is required'],
    [{ tenantId: 42 }, 'tenantId', ''],
    [{ password: 'x'.repeat(2001) }, 'password', 'at most 2000'],
  ])('refuses %j with 400, the field message, and saves nothing', async (change, field, message) => {
    for (const url of ['/api/sharepoint/settings', '/api/sharepoint/test-connection-with-credentials']) {
      const response = await call(t, 'POST', url, staffCookie, { ...valid, ...change });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.message).toContain(message);
      expect(body.fieldErrors[field]?.[0]).toContain(message);
      expect(response.body).not.toContain(PASSWORD);
      expect(response.body).not.toContain(CLIENT_SECRET);
    }
    expect(await storedRows(t)).toEqual([]);
  });

  it('refuses a missing body and missing required fields', async () => {
    const empty = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fieldErrors).sort()).toEqual([
      'availabilityListName',
      'bookingsListName',
      'siteUrl',
    ]);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/sharepoint/settings',
      headers: { cookie: staffCookie },
    });
    expect(none.statusCode).toBe(400);
    expect(await storedRows(t)).toEqual([]);
  });
});

describe('saving and secrets', () => {
  it('saves, answers without secrets and with flags, and encrypts secrets at rest (AES-256-GCM)', async () => {
    const response = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
    expect(response.statusCode).toBe(200);
    const { clientSecret: _c, password: _p, ...plain } = valid;
    const flags = {
      hasPassword: true,
      hasClientSecret: true,
      passwordCleared: false,
      clientSecretCleared: false,
      hasClientCertificate: false,
      clientCertificate: null,
      clientCertificateCleared: false,
      columnMapping: {},
    };
    expect(response.json()).toEqual({ ...plain, ...flags });
    expect(response.body).not.toContain(PASSWORD);
    expect(response.body).not.toContain(CLIENT_SECRET);

    const [row] = await storedRows(t);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
    expect(row!.passwordEncrypted).toMatch(/^v2\./);
    const key = deriveKey(t.ctx.appSecret, 'sharepoint-settings');
    expect(decryptSecret(key, row!.passwordEncrypted!, sharePointDestination(valid, 'password'))).toBe(
      PASSWORD,
    );
    expect(
      decryptSecret(key, row!.clientSecretEncrypted!, sharePointDestination(valid, 'clientSecret')),
    ).toBe(CLIENT_SECRET);
    // sealed to their tenant, app and site: they open for no other
    const elsewhere = { ...valid, siteUrl: 'https://evil.example/sites/arts' };
    expect(() =>
      decryptSecret(key, row!.clientSecretEncrypted!, sharePointDestination(elsewhere, 'clientSecret')),
    ).toThrow();

    const get = await call(t, 'GET', '/api/sharepoint/settings', staffCookie);
    expect(get.json()).toEqual({ ...plain, ...flags });
    expect(get.body).not.toContain(PASSWORD);
  });

  it('keeps the stored secrets when they are sent blank or left out', async () => {
    const [before] = await storedRows(t);
    const response = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      bookingsListName: 'Bookings 2026',
      password: '',
      clientSecret: undefined,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      bookingsListName: 'Bookings 2026',
      hasPassword: true,
      hasClientSecret: true,
    });
    const [after] = await storedRows(t);
    expect(after!.passwordEncrypted).toBe(before!.passwordEncrypted);
    expect(after!.clientSecretEncrypted).toBe(before!.clientSecretEncrypted);
    const loaded = await loadSharePointSettings(t.ctx.db, t.ctx.appSecret);
    expect(loaded).toMatchObject({
      password: PASSWORD,
      clientSecret: CLIENT_SECRET,
      bookingsListName: 'Bookings 2026',
    });
  });

  it('replaces a secret when a new one is typed', async () => {
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      password: 'New-Password-1',
      clientSecret: '',
    });
    const loaded = await loadSharePointSettings(t.ctx.db, t.ctx.appSecret);
    expect(loaded).toMatchObject({ password: 'New-Password-1', clientSecret: CLIENT_SECRET });
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
  });

  it('keeps delta links for the same site and drops them for another site', async () => {
    await t.ctx.db.update(sharepointSettings).set({ deltaLinks: { Bookings: 'https://delta/1' } });
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, { ...valid, password: '' });
    expect((await storedRows(t))[0]!.deltaLinks).toEqual({ Bookings: 'https://delta/1' });
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      siteUrl: 'https://contoso.sharepoint.com/sites/other',
    });
    expect((await storedRows(t))[0]!.deltaLinks).toEqual({});
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
  });

  it.each([
    ['tenant', { tenantId: '99999999-2222-3333-4444-555555555555' }],
    ['client', { clientId: 'ffffffff-bbbb-cccc-dddd-eeeeeeeeeeee' }],
    ['site', { siteUrl: 'https://fabrikam.sharepoint.com/sites/arts' }],
  ])('changing the %s without the secrets clears both, and the answer says so', async (_what, change) => {
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
    const response = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      ...change,
      password: '',
      clientSecret: '',
    });
    expect(response.json()).toMatchObject({
      hasPassword: false,
      hasClientSecret: false,
      passwordCleared: true,
      clientSecretCleared: true,
    });
    const [row] = await storedRows(t);
    expect(row).toMatchObject({ passwordEncrypted: null, clientSecretEncrypted: null });
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
  });

  it('changing the username clears the password only; a new secret typed with the change is kept', async () => {
    const renamed = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      username: 'other@contoso.org',
      password: '',
      clientSecret: '',
    });
    expect(renamed.json()).toMatchObject({
      hasPassword: false,
      passwordCleared: true,
      hasClientSecret: true,
      clientSecretCleared: false,
    });
    const moved = await call(t, 'POST', '/api/sharepoint/settings', staffCookie, {
      ...valid,
      tenantId: '99999999-2222-3333-4444-555555555555',
    });
    expect(moved.json()).toMatchObject({
      hasPassword: true,
      hasClientSecret: true,
      clientSecretCleared: false,
    });
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
  });

  it('a row pointed at another site behind the service’s back does not open its secrets', async () => {
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
    await t.ctx.db.update(sharepointSettings).set({ siteUrl: 'https://evil.example/sites/arts' });
    await expect(loadSharePointSettings(t.ctx.db, t.ctx.appSecret)).rejects.toBeInstanceOf(StoredSecretError);
    await call(t, 'POST', '/api/sharepoint/settings', staffCookie, valid);
  });

  it('stays a single row', async () => {
    expect(await storedRows(t)).toHaveLength(1);
  });

  it('a secret that no longer decrypts (APP_SECRET changed) is reported, not returned garbled', async () => {
    await expect(
      loadSharePointSettings(t.ctx.db, 'a-different-app-secret-of-enough-length-000'),
    ).rejects.toBeInstanceOf(StoredSecretError);
    // the page still loads: flags only
    const get = await call(t, 'GET', '/api/sharepoint/settings', staffCookie);
    expect(get.statusCode).toBe(200);
  });
});

describe('test connection with a connector', () => {
  it('uses the stored secrets when the typed ones are blank and the destination is the stored one, and saves nothing', async () => {
    await call(t2, 'POST', '/api/sharepoint/settings', staff2, valid);
    const [before] = await storedRows(t2);
    testerSaw = [];
    testerBehaviour = async () => ({ success: true, message: '' });
    const response = await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, {
      ...valid,
      bookingsListName: 'Bookings 2027',
      password: '',
      clientSecret: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Connection to SharePoint successful!' });
    expect(testerSaw).toEqual([
      {
        ...valid,
        bookingsListName: 'Bookings 2027',
        columnMapping: {},
        clientCertificate: '',
        clientCertificateKey: '',
      },
    ]);
    expect(await storedRows(t2)).toEqual([before]);
  });

  it.each([
    ['another site', { siteUrl: 'https://evil.example/sites/try' }],
    ['another tenant', { tenantId: 'evil.onmicrosoft.com' }],
    ['another client', { clientId: 'ffffffff-bbbb-cccc-dddd-eeeeeeeeeeee' }],
  ])('never carries the stored secrets to %s: the tester is not even asked', async (_what, change) => {
    testerSaw = [];
    testerBehaviour = async () => ({ success: true, message: '' });
    const response = await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, {
      ...valid,
      ...change,
      password: '',
      clientSecret: '',
    });
    expect(response.json()).toEqual({ success: false, message: STORED_ELSEWHERE_MESSAGE });
    expect(testerSaw).toEqual([]);
  });

  it('another username: the stored client secret goes along, the stored password does not', async () => {
    testerSaw = [];
    testerBehaviour = async () => ({ success: true, message: '' });
    await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, {
      ...valid,
      username: 'other@contoso.org',
      password: '',
      clientSecret: '',
    });
    expect(testerSaw).toEqual([
      {
        ...valid,
        username: 'other@contoso.org',
        password: '',
        columnMapping: {},
        clientCertificate: '',
        clientCertificateKey: '',
      },
    ]);
  });

  it('uses typed secrets when given', async () => {
    testerSaw = [];
    testerBehaviour = async () => ({ success: false, message: 'Access denied for this account' });
    const response = await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, {
      ...valid,
      password: 'Typed-Only-Pass',
    });
    expect(response.json()).toEqual({ success: false, message: 'Access denied for this account' });
    expect(testerSaw[0]).toMatchObject({ password: 'Typed-Only-Pass', clientSecret: CLIENT_SECRET });
    expect((await loadSharePointSettings(t2.ctx.db, t2.ctx.appSecret))!.password).toBe(PASSWORD);
  });

  it('turns a thrown error into a failure and never echoes a secret', async () => {
    testerBehaviour = async (s) => {
      throw new Error(
        `token request failed for ${s.username} with password ${s.password} / ${s.clientSecret}`,
      );
    };
    const response = await call(
      t2,
      'POST',
      '/api/sharepoint/test-connection-with-credentials',
      staff2,
      valid,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.success).toBe(false);
    expect(body.message).toContain(
      'Could not connect to SharePoint: token request failed for sync@contoso.org',
    );
    expect(response.body).not.toContain(PASSWORD);
    expect(response.body).not.toContain(CLIENT_SECRET);
  });

  it('hides secrets in a message the connector returns, and gives the default failure text', async () => {
    testerBehaviour = async (s) => ({ success: false, message: `bad secret ${s.clientSecret}` });
    const leaked = await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, valid);
    expect(leaked.json()).toEqual({ success: false, message: 'bad secret [hidden]' });
    testerBehaviour = async () => ({ success: false, message: '  ' });
    const blank = await call(t2, 'POST', '/api/sharepoint/test-connection-with-credentials', staff2, valid);
    expect(blank.json()).toEqual({ success: false, message: 'Connection test failed' });
  });

  it('never writes a secret to a log line', async () => {
    // a request that fails validation, with secrets in it
    await call(t2, 'POST', '/api/sharepoint/settings', staff2, { ...valid, siteUrl: 'nope' });
    await call(t2, 'GET', '/api/sharepoint/settings', staff2);
    const logs = logLines.join('\n');
    // logging really was on and captured
    expect(logs).toContain('SharePoint settings saved');
    expect(logs).toContain('SharePoint connection test');
    expect(logs).toContain('/api/sharepoint/test-connection-with-credentials');
    for (const secret of [PASSWORD, CLIENT_SECRET, 'Typed-Only-Pass']) expect(logs).not.toContain(secret);
  });
});
