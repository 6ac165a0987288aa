import type { SafeguardingRecordsResponse } from '@shared/schemas/safeguarding';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { OwnSafeguardingCard } from './own-safeguarding-card';

const sue: SafeguardingRecordsResponse = {
  userId: 5,
  name: 'Sue Soon',
  date: '2026-03-10',
  dbs: {
    certificateNumber: '001122334455',
    issueDate: '2023-03-21',
    enhancedWithBarredList: true,
    onUpdateService: false,
    statusCheckedOn: null,
    checkedBy: 'Office',
  },
  checks: [{ type: 'First aid', validUntil: '2027-01-31' }],
  checkTypes: ['First aid'],
  status: {
    state: 'expiring',
    checks: [
      {
        name: 'DBS',
        state: 'expiring',
        validUntil: '2026-03-20',
        message: 'DBS check due soon: valid until 20 March 2026',
      },
      {
        name: 'First aid',
        state: 'valid',
        validUntil: '2027-01-31',
        message: 'First aid valid until 31 January 2027',
      },
    ],
    reasons: ['DBS check due soon: valid until 20 March 2026'],
  },
  version: 3,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

const answer = (response: () => Response) => server.use(http.get('/api/safeguarding', response));

describe('OwnSafeguardingCard', () => {
  test('shows the state, each check in words and the certificate number', async () => {
    answer(() => HttpResponse.json(sue));
    renderWithApp(<OwnSafeguardingCard />);
    const checks = await screen.findByRole('list', { name: 'Checks' });
    expect(
      within(checks)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Expiring soonDBS check due soon: valid until 20 March 2026',
      'Checks validFirst aid valid until 31 January 2027',
    ]);
    expect(screen.getByTitle('Expiring soon')).toHaveAttribute('data-safeguarding', 'expiring');
    expect(screen.getByText('DBS certificate 001122334455')).toBeVisible();
  });

  test('says when the check is on the Update Service, and shows no number when none is held', async () => {
    answer(() =>
      HttpResponse.json({
        ...sue,
        dbs: { ...sue.dbs!, onUpdateService: true, statusCheckedOn: '2026-01-05' },
      }),
    );
    const { unmount } = renderWithApp(<OwnSafeguardingCard />);
    expect(await screen.findByText('DBS certificate 001122334455, on the Update Service')).toBeVisible();
    unmount();

    answer(() =>
      HttpResponse.json({
        ...sue,
        dbs: null,
        status: {
          state: 'missing',
          checks: [{ name: 'DBS', state: 'missing', validUntil: null, message: 'No DBS check recorded' }],
          reasons: ['No DBS check recorded'],
        },
      }),
    );
    renderWithApp(<OwnSafeguardingCard />);
    expect(await screen.findByText('No DBS check recorded')).toBeVisible();
    expect(screen.getByTitle('Missing')).toHaveAttribute('data-safeguarding', 'missing');
    expect(screen.queryByText(/DBS certificate/)).toBeNull();
  });

  test("a failed read shows the server's message", async () => {
    answer(() => HttpResponse.json({ message: 'The records could not be read' }, { status: 500 }));
    renderWithApp(<OwnSafeguardingCard />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The records could not be read');
  });
});
