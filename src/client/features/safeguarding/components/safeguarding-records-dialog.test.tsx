import type { SafeguardingRecordsResponse } from '@shared/schemas/safeguarding';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SafeguardingRecordsDialog } from './safeguarding-records-dialog';

const URL = '/api/staff/users/7/safeguarding';
const records: SafeguardingRecordsResponse = {
  userId: 7,
  name: 'Nina New',
  date: '2026-03-10',
  dbs: null,
  checks: [],
  checkTypes: ['First aid'],
  status: {
    state: 'missing',
    checks: [
      { name: 'DBS', state: 'missing', validUntil: null, message: 'No DBS check recorded' },
      { name: 'First aid', state: 'missing', validUntil: null, message: 'No First aid recorded' },
    ],
    reasons: ['No DBS check recorded', 'No First aid recorded'],
  },
  version: 2,
  updatedAt: null,
};

/** Nina's records, and their save answering as `answer` says; returns the bodies sent. */
function recordsApi(answer: () => Response, stored: SafeguardingRecordsResponse = records) {
  const bodies: unknown[] = [];
  server.use(
    http.get(URL, () => HttpResponse.json(stored)),
    http.put(URL, async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

async function openDialog() {
  const rendered = renderWithApp(
    <SafeguardingRecordsDialog person={{ id: 7, name: 'Nina New' }} onClose={() => {}} />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Safeguarding records of Nina New' });
  await within(dialog).findByLabelText('Certificate number');
  return { ...rendered, dialog };
}

describe('SafeguardingRecordsDialog', () => {
  test("the DBS check's rules show below it, one at a time, and nothing is sent until they hold", async () => {
    const bodies = recordsApi(() => HttpResponse.json(records));
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Certificate number'), '12345');
    await user.type(within(dialog).getByLabelText('Issue date'), '2026-02-01');
    await user.type(within(dialog).getByLabelText('Checked by'), 'Priya in the office');
    await user.click(within(dialog).getByRole('button', { name: 'Save records' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Certificate number must be 12 digits',
    );

    await user.clear(within(dialog).getByLabelText('Certificate number'));
    await user.type(within(dialog).getByLabelText('Certificate number'), '5566 7788 9900');
    await user.click(within(dialog).getByLabelText('On the DBS Update Service'));
    await user.type(within(dialog).getByLabelText('Last status check'), '2026-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Save records' }));
    // (the alert may still be the first rule's until the form has checked again)
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'The status check cannot be before the issue date',
      ),
    );
    expect(bodies).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Last status check'));
    await user.type(within(dialog).getByLabelText('Last status check'), '2026-03-01');
    await user.type(within(dialog).getByLabelText('First aid'), '2027-01-31');
    await user.click(within(dialog).getByRole('button', { name: 'Save records' }));
    expect(await screen.findByText('Safeguarding records saved')).toBeVisible();
    expect(bodies).toEqual([
      {
        dbs: {
          certificateNumber: '556677889900',
          issueDate: '2026-02-01',
          enhancedWithBarredList: true,
          onUpdateService: true,
          statusCheckedOn: '2026-03-01',
          checkedBy: 'Priya in the office',
        },
        checks: [{ type: 'First aid', validUntil: '2027-01-31' }],
        version: 2,
      },
    ]);
  });

  test("a refused save keeps the form and shows the server's message", async () => {
    recordsApi(() =>
      HttpResponse.json(
        { message: 'These records were changed by someone else. Reload to see the changes.' },
        { status: 409 },
      ),
    );
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('First aid'), '2027-01-31');
    await user.click(within(dialog).getByRole('button', { name: 'Save records' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'These records were changed by someone else. Reload to see the changes.',
    );
    expect(within(dialog).getByLabelText('First aid')).toHaveValue('2027-01-31');
  });

  test('opens on the records held: each field filled, and where each check stands today', async () => {
    recordsApi(() => HttpResponse.json(records), {
      ...records,
      dbs: {
        certificateNumber: '556677889900',
        issueDate: '2025-02-01',
        enhancedWithBarredList: true,
        onUpdateService: true,
        statusCheckedOn: '2026-02-15',
        checkedBy: 'Priya in the office',
      },
      // the type as the policy names it, whatever the case it was recorded in
      checks: [{ type: 'first AID', validUntil: '2026-04-01' }],
      status: {
        state: 'expiring',
        checks: [
          {
            name: 'DBS',
            state: 'valid',
            validUntil: '2027-02-14',
            message: 'DBS check valid until 14 February 2027',
          },
          {
            name: 'First aid',
            state: 'expiring',
            validUntil: '2026-04-01',
            message: 'First aid due soon: valid until 1 April 2026',
          },
        ],
        reasons: ['First aid due soon: valid until 1 April 2026'],
      },
    });
    const { dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Certificate number')).toHaveValue('556677889900');
    expect(within(dialog).getByLabelText('Issue date')).toHaveValue('2025-02-01');
    expect(within(dialog).getByLabelText('On the DBS Update Service')).toBeChecked();
    expect(within(dialog).getByLabelText('Last status check')).toHaveValue('2026-02-15');
    expect(within(dialog).getByLabelText('Checked by')).toHaveValue('Priya in the office');
    expect(within(dialog).getByLabelText('First aid')).toHaveValue('2026-04-01');
    const today = within(dialog).getByTestId('current-status');
    expect(within(today).getByTitle('Expiring soon')).toHaveAttribute('data-safeguarding', 'expiring');
    expect(
      within(today)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Checks validDBS check valid until 14 February 2027',
      'Expiring soonFirst aid due soon: valid until 1 April 2026',
    ]);
  });

  test('with no DBS check held, the form is blank and says so', async () => {
    recordsApi(() => HttpResponse.json(records));
    const { dialog } = await openDialog();
    const today = within(dialog).getByTestId('current-status');
    expect(within(today).getByTitle('Missing')).toHaveAttribute('data-safeguarding', 'missing');
    expect(
      within(today)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['MissingNo DBS check recorded', 'MissingNo First aid recorded']);
    expect(within(dialog).getByLabelText('Certificate number')).toHaveValue('');
    expect(within(dialog).getByLabelText('Issue date')).toHaveValue('');
    expect(within(dialog).getByLabelText(/Enhanced check with the children’s barred list/)).toBeChecked();
    expect(within(dialog).getByLabelText('On the DBS Update Service')).not.toBeChecked();
    expect(within(dialog).queryByLabelText('Last status check')).toBeNull();
    expect(within(dialog).getByLabelText('Checked by')).toHaveValue('');
    expect(within(dialog).getByLabelText('First aid')).toHaveValue('');
  });
});
