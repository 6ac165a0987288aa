import { DEFAULT_RETENTION, RETENTION_KINDS, type RetentionCounts } from '@shared/schemas/retention';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { ErasePersonDialog } from './erase-person-dialog';
import { RetentionSettings } from './retention-settings';

const counts = (values: Partial<RetentionCounts>): RetentionCounts =>
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, values[kind] ?? 0])) as RetentionCounts;

function retentionApi() {
  const saved: unknown[] = [];
  let settings = { ...DEFAULT_RETENTION };
  server.use(
    http.get('/api/staff/retention', () =>
      HttpResponse.json({
        settings,
        lastRun: { ranAt: '2026-03-02T03:00:00.000Z', counts: counts({ availability: 7 }) },
      }),
    ),
    http.put('/api/staff/retention', async ({ request }) => {
      const body = (await request.json()) as typeof settings;
      saved.push(body);
      settings = body;
      return HttpResponse.json({ settings, lastRun: null });
    }),
    http.get('/api/staff/retention/preview', () =>
      HttpResponse.json({
        asOf: '2026-03-02',
        recordsBefore: '2020-03-02',
        counts: counts({ certificateNumbers: 2, photos: 1 }),
      }),
    ),
    http.get('/api/staff/erasures', () =>
      HttpResponse.json([
        {
          id: 1,
          erasedAt: '2026-02-01T10:00:00.000Z',
          erasedBy: 'Sam Staff',
          reason: 'Asked by letter',
          removed: { account: 1, availability: 3, signInSessions: 2 },
          kept: [{ kind: 'sessions', count: 2, why: 'the organisation’s record of sessions delivered' }],
        },
        {
          // recorded before kinds had labels: shown as stored
          id: 0,
          erasedAt: '2026-01-05T10:00:00.000Z',
          erasedBy: 'Sam Staff',
          reason: 'Asked by email',
          removed: { 'calendar feed': 1 },
          kept: [],
        },
      ]),
    ),
  );
  return saved;
}

describe('RetentionSettings', () => {
  test('shows the preview and the last run by kind, and the erasures', async () => {
    retentionApi();
    renderWithApp(<RetentionSettings />);
    const next = await screen.findByRole('table', { name: 'What the next run would remove' });
    const row = (table: HTMLElement, label: string) =>
      within(table).getByRole('cell', { name: label }).closest('tr') as HTMLElement;
    expect(row(next, 'Leavers’ certificate numbers cut to the last four digits')).toHaveTextContent('2');
    expect(row(next, 'Leavers’ photos')).toHaveTextContent('1');
    const last = screen.getByRole('table', { name: 'What the last run removed' });
    expect(row(last, 'Availability days')).toHaveTextContent('7');
    const erasures = await screen.findByRole('list', { name: 'Erasures' });
    expect(erasures).toHaveTextContent('Reason: Asked by letter');
    const [latest, older] = within(erasures).getAllByRole('listitem');
    // each kind in plain words, never its stored name
    expect(latest).toHaveTextContent('Removed: Account 1, Availability days 3, Sign-in sessions 2');
    expect(latest).toHaveTextContent(
      'Kept: Sessions delivered 2 (the organisation’s record of sessions delivered)',
    );
    expect(latest).not.toHaveTextContent('signInSessions');
    expect(older).toHaveTextContent('Removed: calendar feed 1');
  });

  test('refuses a schedule against the shared rules, sending nothing, then saves a good one', async () => {
    const saved = retentionApi();
    const { user } = renderWithApp(<RetentionSettings />);
    const form = await screen.findByRole('form', { name: 'Retention schedule' });
    const certificate = within(form).getByLabelText('Months a leaver’s certificate number is kept');
    await user.clear(certificate);
    await user.type(certificate, '13');
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(
      await within(form).findByText(
        'A leaver is anonymised no sooner than their certificate number is shortened',
      ),
    ).toBeVisible();
    expect(saved).toEqual([]);

    await user.clear(certificate);
    await user.type(certificate, '3');
    await user.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Retention schedule saved')).toBeVisible();
    expect(saved).toEqual([{ certificateMonths: 3, anonymiseMonths: 12, recordsYears: 6 }]);
  });
});

describe('ErasePersonDialog', () => {
  test('needs a reason and the confirmation, then shows what was removed and what was kept and why', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/staff/users/:id/erase', async ({ request, params }) => {
        sent.push({ id: params.id, body: await request.json() });
        return HttpResponse.json({
          id: 4,
          erasedAt: '2026-03-02T10:00:00.000Z',
          erasedBy: 'Sam Staff',
          reason: 'Asked by letter',
          removed: { account: 1, availability: 3, photo: 0, recordVersions: 2, pushOutbox: 1 },
          kept: [
            { kind: 'sessions', count: 2, why: 'the organisation’s record of sessions delivered' },
            { kind: 'sharePointAvailability', count: 3, why: 'until SharePoint has removed each item' },
          ],
        });
      }),
    );
    const { user } = renderWithApp(
      <ErasePersonDialog person={{ id: 9, name: 'Ann Artist' }} onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Erase personal data: Ann Artist' });
    const submit = within(dialog).getByRole('button', { name: 'Erase personal data' });
    await user.click(submit);
    expect(await within(dialog).findByText('Give the reason for the erasure')).toBeVisible();
    expect(within(dialog).getByText('Confirm that you understand this cannot be undone')).toBeVisible();
    expect(sent).toEqual([]);

    await user.type(within(dialog).getByLabelText('Reason'), 'Asked by letter');
    await user.click(within(dialog).getByLabelText('I understand this cannot be undone'));
    await user.click(submit);
    const done = await screen.findByRole('dialog', { name: 'Personal data erased' });
    expect(sent).toEqual([{ id: '9', body: { reason: 'Asked by letter' } }]);
    // each kind in plain words
    const removed = within(done).getByRole('list', { name: 'Removed' });
    expect(
      within(removed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Account: 1',
      'Availability days: 3',
      'Earlier safeguarding records: 2',
      'Notifications waiting to be sent: 1',
    ]);
    const kept = within(done).getByRole('list', { name: 'Kept, and why' });
    expect(
      within(kept)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Sessions delivered: 2, the organisation’s record of sessions delivered',
      'SharePoint availability items to remove: 3, until SharePoint has removed each item',
    ]);
  });

  test("shows the server's refusal of a reason that names the person, under the field", async () => {
    server.use(
      http.post('/api/staff/users/:id/erase', () =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: 'The reason must not name the person',
            fieldErrors: { reason: ['The reason must not name the person'] },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderWithApp(
      <ErasePersonDialog person={{ id: 9, name: 'Ann Artist' }} onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Erase personal data: Ann Artist' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Ann Artist asked');
    await user.click(within(dialog).getByLabelText('I understand this cannot be undone'));
    await user.click(within(dialog).getByRole('button', { name: 'Erase personal data' }));
    expect(await within(dialog).findByText('The reason must not name the person')).toBeVisible();
    expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
  });
});
