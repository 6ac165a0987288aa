import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerEmulatorCertificate, withSharePointLock } from './emulator';
import { expect as baseExpect, checkScreen, loginAsStaff, test, toastLocator } from './fixtures';

/*
 * A client certificate on the settings page: pasted with its key, stored (the key never shown again),
 * described with its expiry and a warning from 30 days before it, and used by Test Connection against
 * the emulator, which checks the signed assertion. The settings row is shared by the whole run, so
 * the test holds the SharePoint lock and removes the certificate again at the end.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

function makePair(name: string, days: number) {
  const dir = mkdtempSync(join(tmpdir(), 'afp-e2e-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        String(days),
        '-subj',
        `/CN=${name}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      certificate: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a certificate that expires in 10 days: stored, described, warned about, and it signs in', async ({
  page,
}, testInfo) => {
  const name = `portal-e2e-${testInfo.project.name}`;
  const pair = makePair(name, 10);
  await registerEmulatorCertificate(pair.certificate);
  await loginAsStaff(page);
  await withSharePointLock(async () => {
    await page.goto('/settings');
    await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
    await page.getByLabel('Client Certificate (PEM)', { exact: true }).fill(pair.certificate);
    await page.getByLabel('Certificate Private Key (PEM)', { exact: true }).fill(pair.key);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/sharepoint/settings') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Save Settings' }).click();
    const body = await (await saved).text();
    expect(body).not.toContain('PRIVATE KEY');
    try {
      await expect(toastLocator(page)).toContainText('Settings saved');
      const summary = page.getByTestId('certificate-summary');
      await expect(summary).toContainText(`Certificate stored: CN=${name}`);
      await expect(page.getByTestId('certificate-warning')).toContainText(
        /The certificate expires in (9|10) days, on /,
      );
      await expect(page.getByLabel('Certificate Private Key (PEM)', { exact: true })).toHaveValue('');
      await expect(page.getByText('A certificate is stored. Leave both blank to keep it')).toBeVisible();
      await checkScreen(page, testInfo, 'settings-certificate');

      // the stored certificate signs the token request the emulator checks
      await page.getByRole('button', { name: 'Test Connection' }).click();
      await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'success', {
        timeout: 20_000,
      });
    } finally {
      await page.getByLabel('Remove the stored certificate').check();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await expect(page.getByTestId('certificate-summary')).toHaveCount(0);
    }
  });
});

test('a private key of another certificate is refused at its field', async ({ page }) => {
  const one = makePair('one', 30);
  const two = makePair('two', 30);
  await loginAsStaff(page);
  await page.goto('/settings');
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
  await page.getByLabel('Client Certificate (PEM)', { exact: true }).fill(one.certificate);
  await page.getByLabel('Certificate Private Key (PEM)', { exact: true }).fill(two.key);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toastLocator(page)).toContainText('Check the certificate and its private key.');
  await expect(page.getByText('This private key does not belong to the certificate.')).toBeVisible();
  await expect(page.getByLabel('Certificate Private Key (PEM)', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
});
