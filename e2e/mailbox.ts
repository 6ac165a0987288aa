import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import type { ReceivedMail } from '../src/server/mail/test-smtp';
import { E2E_MAIL_DIR, E2E_SMTP_LOGIN, E2E_SMTP_PORT } from './constants';

/** The e2e server's test SMTP server (e2e/server-with-fixtures.ts), as the email settings form takes it. */
export const TEST_SMTP = { host: '127.0.0.1', port: E2E_SMTP_PORT } as const;

/** Every message the test SMTP server has received so far. */
export function receivedMail(): ReceivedMail[] {
  let files: string[];
  try {
    files = readdirSync(E2E_MAIL_DIR).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((name) => JSON.parse(readFileSync(join(E2E_MAIL_DIR, name), 'utf8')) as ReceivedMail);
}

/** The messages to one address, once at least `count` have arrived. */
export async function mailTo(address: string, count = 1): Promise<ReceivedMail[]> {
  let found: ReceivedMail[] = [];
  await expect
    .poll(
      () => {
        found = receivedMail().filter((m) => m.to.includes(address));
        return found.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found;
}

/** Points the portal's email settings at the test SMTP server (staff's API context). */
export async function sendMailToTestServer(api: APIRequestContext): Promise<void> {
  const saved = await api.put('/api/staff/reminders/settings', {
    data: {
      host: TEST_SMTP.host,
      port: TEST_SMTP.port,
      security: 'none',
      username: E2E_SMTP_LOGIN.user,
      password: E2E_SMTP_LOGIN.pass,
      fromAddress: 'portal@example.org',
      autoEnabled: false,
      autoDay: 25,
      autoMonth: 'next',
    },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
}
