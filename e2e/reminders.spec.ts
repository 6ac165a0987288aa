import type { Page } from '@playwright/test';
import { BASE_URL, E2E_SMTP_LOGIN } from './constants';
import { addMonths, monthLabel, monthWeekdays } from './dates';
import {
  expect as baseExpect,
  checkScreen,
  chooseOption,
  holdRequests,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { mailTo, receivedMail, sendMailToTestServer, TEST_SMTP } from './mailbox';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

/*
 * Email reminders. The e2e server runs a real SMTP server (e2e/server-with-fixtures.ts) that
 * writes what it receives where e2e/mailbox.ts reads it. Both projects save the same settings (that
 * server), so running them side by side changes nothing for either; each test reminds its own
 * facilitators, so the once-a-day rule never meets another test's.
 */
// reminders are only about months within a year of this one: eleven months ahead is far from what
// other specs touch and still allowed
const MONTH = addMonths(`${new Date().toISOString().slice(0, 7)}-01`, 11).slice(0, 7);
const LABEL = monthLabel(`${MONTH}-01`);
const WEEKDAYS = monthWeekdays(`${MONTH}-01`).length;

async function fillEmailSettings(page: Page) {
  const form = page.getByRole('form', { name: 'Email settings' });
  await form.getByLabel('SMTP server').fill(TEST_SMTP.host);
  await chooseOption(form.getByLabel('Encryption'), /^None/);
  await form.getByLabel('SMTP port').fill(String(TEST_SMTP.port));
  await form.getByLabel('SMTP username').fill(E2E_SMTP_LOGIN.user);
  await form.getByLabel('SMTP password', { exact: true }).fill(E2E_SMTP_LOGIN.pass);
  await form.getByLabel('Sender address').fill('portal@example.org');
  return form;
}

// the rules (a host that is not one, named before anything is sent) and what the form shows of an
// answer are the form's (email-settings.test.tsx); here the real server's answers and their screens
test('email settings: saved, the password never shown back, and cleared when the server changes', async ({
  page,
}, testInfo) => {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.url().includes('/api/staff/reminders/')) bodies.push(await response.text().catch(() => ''));
  });
  const api = await staffApi();
  try {
    await loginAsStaff(page);
    await page.goto('/settings');
    const form = page.getByRole('form', { name: 'Email settings' });
    await expect(form.getByRole('heading', { name: 'Email reminders' })).toBeVisible();

    await fillEmailSettings(page);
    // the automatic reminder: on, the 28th, about the next month
    await form.getByRole('checkbox', { name: 'Send a reminder automatically every month' }).check();
    await chooseOption(form.getByLabel('Day of the month'), '28');
    await form.getByRole('button', { name: 'Save email settings' }).click();
    await expect(toastLocator(page)).toContainText('Email settings saved');

    const password = form.getByLabel('SMTP password', { exact: true });
    await expect(password).toHaveValue('');
    await expect(form.getByText('An SMTP password is stored. Leave blank to keep it.')).toBeVisible();
    await expect(form.getByTestId('next-automatic')).toContainText('Next automatic reminder:');
    // the link in every reminder is the operator's PUBLIC_URL, shown, not typed
    await expect(form.getByTestId('portal-address')).toHaveText(BASE_URL);
    await expect(form.getByRole('textbox', { name: 'Portal address' })).toHaveCount(0);
    await checkScreen(page, testInfo, 'email-settings');

    await page.reload();
    await expect(form.getByLabel('SMTP server')).toHaveValue(TEST_SMTP.host);
    await expect(form.getByLabel('SMTP port')).toHaveValue(String(TEST_SMTP.port));
    await expect(password).toHaveValue('');
    await expect(form.getByText('An SMTP password is stored. Leave blank to keep it.')).toBeVisible();
    await expect(
      form.getByRole('checkbox', { name: 'Send a reminder automatically every month' }),
    ).toBeChecked();

    // the automatic reminder off again (other tests send by hand), and the same server by another
    // name without its password: a password is only ever sent where it was typed for
    await form.getByRole('checkbox', { name: 'Send a reminder automatically every month' }).uncheck();
    await form.getByLabel('SMTP server').fill('localhost');
    await form.getByRole('button', { name: 'Save email settings' }).click();
    const note = form.getByTestId('password-cleared');
    await expect(note).toContainText('The password was cleared because the server changed: enter it again.');
    // put the settings back at once: the other project's specs send through them
    await sendMailToTestServer(api);
    await expect(toastLocator(page).filter({ hasText: 'enter it again' })).toBeVisible();
    await expect(form.getByText('No SMTP password is stored.')).toBeVisible();
    await expect(form.getByTestId('next-automatic')).toHaveText('The automatic reminder is off.');
    await checkScreen(page, testInfo, 'email-password-cleared');

    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) expect(body).not.toContain(E2E_SMTP_LOGIN.pass);
  } finally {
    await api.dispose();
  }
});

test('Send reminder: emails the partial and missing once a day, says what was sent and skipped', async ({
  page,
}, testInfo) => {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const area = `Reminders ${tag}`;
  const ids: number[] = [];
  const person = async (displayName: string, username: string, email: string) => {
    const res = await api.post('/api/staff/users', {
      data: { username, password: 'remind-pass-1', displayName, email, role: 'facilitator', area },
    });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { id: number }).id;
    ids.push(id);
    return id;
  };
  const pia = `pia-${tag}@example.org`;
  const piaId = await person('Pia Partial', pia, pia);
  await person('Nell No-Email', `nell-${tag}`, '');
  const res = await api.post('/api/staff/availability', {
    data: { userId: piaId, date: monthWeekdays(`${MONTH}-01`)[0], status: 'available' },
  });
  expect(res.status(), await res.text()).toBe(200);

  try {
    // email settings pointing at the e2e SMTP server (the same in every test and project)
    await sendMailToTestServer(api);
    await loginAsStaff(page);
    await page.goto(`/staff/completeness?month=${MONTH}&area=${encodeURIComponent(area)}`);
    await expect(page.getByTestId('completeness-row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Send reminder', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Send reminder' });
    await expect(dialog).toContainText(`Email the 2 facilitators who are partial or missing for ${LABEL}`);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog).toBeHidden();
    const result = page.getByTestId('reminder-result');
    await expect(result).toContainText(`Reminders for ${LABEL}: 1 sent, 1 skipped, 0 failed.`);
    await expect(result).toContainText('Nell No-Email: skipped (No email address)');
    await expect(page.getByTestId('completeness-row').filter({ hasText: 'Pia Partial' })).toContainText(
      'Today,',
    );
    await checkScreen(page, testInfo, 'reminder-sent');

    const [message] = await mailTo(pia);
    expect(message!.subject).toBe(`Please add your availability for ${LABEL}`);
    expect(message!.text).toContain('Hello Pia Partial,');
    expect(message!.text).toContain(`1 of ${WEEKDAYS} weekdays of ${LABEL}`);
    expect(message!.text).toContain(`${BASE_URL}/`);
    expect(message!.html).toContain(`href="${BASE_URL}/"`);

    // again the same day, for Pia alone: skipped, and no second message
    await page.getByRole('checkbox', { name: 'Choose Pia Partial' }).check();
    await page.getByRole('button', { name: 'Send reminder to 1 chosen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send', exact: true }).click();
    await expect(result).toContainText(`Reminders for ${LABEL}: 0 sent, 1 skipped, 0 failed.`);
    await expect(result).toContainText('Pia Partial: skipped (Already reminded today)');
    expect(receivedMail().filter((m) => m.to.includes(pia))).toHaveLength(1);

    // Another area's report loading: the one still on screen can be neither chosen nor sent to.
    const release = await holdRequests(page, /\/api\/staff\/completeness\?/);
    await chooseOption(page.getByLabel('Area'), 'All areas');
    await expect(page).not.toHaveURL(/area=/);
    const sendButton = page.getByRole('button', { name: 'Send reminder', exact: true });
    const everyone = page.getByRole('checkbox', { name: 'Choose everyone who is partial or missing' });
    await expect(sendButton).toBeDisabled();
    await expect(everyone).toBeDisabled();
    await expect(page.getByRole('checkbox', { name: 'Choose Pia Partial' })).toBeDisabled();
    // nor another month's: until its report is in, nobody is said to have filled it in
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect(page).not.toHaveURL(new RegExp(`month=${MONTH}`));
    await expect(sendButton).toBeDisabled();
    await expect(page.getByText(/Everyone shown has filled in/)).toHaveCount(0);
    release();
    // every facilitator on the shared server without this month's availability is missing
    await expect(sendButton).toBeEnabled();
    await expect(everyone).toBeEnabled();
  } finally {
    for (const id of ids) await api.delete(`/api/staff/users/${id}`);
    await api.dispose();
  }
});
