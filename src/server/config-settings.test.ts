/**
 * The settings that were buildApp options (ADR 0037): parsed and refused like every other variable,
 * and what each plugin makes of them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { TEST_SMTP_CERT, testSmtpCaFile } from './mail/test-smtp';
import { createTestApp } from './test/harness';

describe('settings of the plugins', () => {
  it('have the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      LOGIN_THROTTLE: {},
      BACKGROUND_JOBS: true,
      BACKGROUND_JOBS_TICK: '*/30 * * * * *',
      SHAREPOINT_RETRY: {},
      SHAREPOINT_OUTBOX: {},
      SMTP_TIMEOUT_SECONDS: 15,
    });
    const config = loadConfig({});
    expect(config.CLIENT_DIR).toBeUndefined();
    expect(config.SMTP_CA).toBeUndefined();
    expect(config.ENTRA_AUTHORITY_HOST).toBeUndefined();
  });

  it('read name=number pairs, each replacing one default', () => {
    const config = loadConfig({
      LOGIN_THROTTLE: 'perAccount=5, windowMs=60000',
      SHAREPOINT_RETRY: 'maxAttempts=2',
      SHAREPOINT_OUTBOX: 'batchSize=200,idleMs=100',
    });
    expect(config.LOGIN_THROTTLE).toEqual({ perAccount: 5, windowMs: 60_000 });
    expect(config.SHAREPOINT_RETRY).toEqual({ maxAttempts: 2 });
    expect(config.SHAREPOINT_OUTBOX).toEqual({ batchSize: 200, idleMs: 100 });
  });

  it.each([
    [{ LOGIN_THROTTLE: 'perAcount=5' }, /LOGIN_THROTTLE: "perAcount" is not one of perAccountAddress/],
    [{ SHAREPOINT_RETRY: 'maxAttempts=two' }, /SHAREPOINT_RETRY: "maxAttempts=two" is not name=number/],
    [{ SHAREPOINT_OUTBOX: 'random=1' }, /SHAREPOINT_OUTBOX: "random" is not one of/],
    [{ BACKGROUND_JOBS_TICK: 'every minute' }, /BACKGROUND_JOBS_TICK: must be a cron pattern/],
    [{ BACKGROUND_JOBS: 'sometimes' }, /BACKGROUND_JOBS: must be true or false/],
    [{ SMTP_TIMEOUT_SECONDS: '0' }, /SMTP_TIMEOUT_SECONDS/],
    [{ ENTRA_AUTHORITY_HOST: 'login' }, /ENTRA_AUTHORITY_HOST/],
    [{ SMTP_CA_FILE: '/nonexistent/ca.pem' }, /SMTP_CA_FILE: cannot read \/nonexistent\/ca.pem \(ENOENT\)/],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses an SMTP_CA_FILE that holds no certificate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'afp-ca-'));
    try {
      const file = join(dir, 'ca.pem');
      writeFileSync(file, 'not a certificate');
      expect(() => loadConfig({ SMTP_CA_FILE: file })).toThrow(/SMTP_CA_FILE: .* holds no PEM certificate/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reach the plugins that use them', async () => {
    const t = await createTestApp({
      SHAREPOINT_RETRY: 'maxAttempts=2,requestTimeoutMs=900',
      SHAREPOINT_OUTBOX: 'concurrency=1,idleMs=50',
      SMTP_CA_FILE: testSmtpCaFile(),
      SMTP_TIMEOUT_SECONDS: '4',
      REQUEST_BUDGETS: 'export=9',
    });
    try {
      expect(t.ctx.mailer.options).toMatchObject({ extraCa: TEST_SMTP_CERT, connectionTimeoutMs: 4000 });
      expect(t.ctx.sharePoint.options).toEqual({
        timings: { maxAttempts: 2, requestTimeoutMs: 900 },
        // the drain loop's wait is the scheduler's, not the outbox worker's
        outbox: { concurrency: 1 },
      });
      expect(t.ctx.limits.budgets.export.max).toBe(9);
      // BACKGROUND_JOBS=false (the harness's): nothing runs in the background
      expect(t.app.scheduler).toBeNull();
    } finally {
      await t.close();
    }
  });
});
