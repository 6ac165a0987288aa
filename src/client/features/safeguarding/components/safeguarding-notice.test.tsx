import type { SafeguardingRecordsResponse } from '@shared/schemas/safeguarding';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SafeguardingNotice } from './safeguarding-notice';

const DBS_VALID = {
  name: 'DBS',
  state: 'valid',
  validUntil: '2028-01-31',
  message: 'DBS check valid until 31 January 2028',
} as const;

/** The signed-in facilitator's own records, as /api/safeguarding answers with `status`. */
function ownRecords(status: SafeguardingRecordsResponse['status']) {
  const records: SafeguardingRecordsResponse = {
    userId: 4,
    name: 'Nina None',
    date: '2026-03-10',
    dbs: null,
    checks: [],
    checkTypes: ['First aid', 'Insurance', 'Right to work'],
    status,
    version: 1,
    updatedAt: null,
  };
  let read = false;
  server.use(
    http.get('/api/safeguarding', () => {
      read = true;
      return HttpResponse.json(records);
    }),
  );
  return { wasRead: () => read };
}

const notice = () => screen.findByRole('region', { name: /safeguarding/ });

describe('SafeguardingNotice', () => {
  test('a missing or expired check: the checks need updating, what to do about each that is not valid, and a link to Settings', async () => {
    ownRecords({
      state: 'missing',
      checks: [
        { name: 'DBS', state: 'missing', validUntil: null, message: 'No DBS check recorded' },
        {
          name: 'First aid',
          state: 'expired',
          validUntil: '2026-03-01',
          message: 'First aid expired: it counted until 1 March 2026',
        },
        { name: 'Insurance', state: 'missing', validUntil: null, message: 'No Insurance recorded' },
        {
          name: 'Right to work',
          state: 'valid',
          validUntil: '2030-01-01',
          message: 'Right to work valid until 1 January 2030',
        },
      ],
      reasons: [],
    });
    renderWithApp(<SafeguardingNotice />);
    const region = await notice();
    expect(within(region).getByRole('heading')).toHaveTextContent('Your safeguarding checks need updating');
    expect(region).toHaveAttribute('data-state', 'missing');
    expect(region).toHaveTextContent(
      'Schools need your checks in date: until they are, you are not put forward for sessions.',
    );
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'No DBS check recorded. Send the office your enhanced DBS certificate (with the children’s barred list) so they can record it.',
      'First aid expired: it counted until 1 March 2026. Renew your First aid and send the office the new date it is valid until.',
      'No Insurance recorded. Send the office your Insurance with the date it is valid until.',
    ]);
    expect(within(region).getByRole('link', { name: 'See your checks in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  test('a DBS check due soon: says so, and how to renew it', async () => {
    ownRecords({
      state: 'expiring',
      checks: [
        {
          name: 'DBS',
          state: 'expiring',
          validUntil: '2026-03-20',
          message: 'DBS check due soon: valid until 20 March 2026',
        },
      ],
      reasons: [],
    });
    renderWithApp(<SafeguardingNotice />);
    const region = await notice();
    expect(within(region).getByRole('heading')).toHaveTextContent('A safeguarding check is due soon');
    expect(region).toHaveAttribute('data-state', 'expiring');
    expect(region).toHaveTextContent('renew before it runs out to keep being put forward for sessions');
    expect(within(region).getByRole('listitem')).toHaveTextContent(
      'DBS check due soon: valid until 20 March 2026. Apply for a new enhanced DBS check, or, if you are on the DBS Update Service, ask the office to make a status check.',
    );
  });

  test('every check valid: nothing is shown', async () => {
    const own = ownRecords({ state: 'valid', checks: [DBS_VALID], reasons: [] });
    const { queryClient } = renderWithApp(<SafeguardingNotice />);
    await waitFor(() => expect(own.wasRead()).toBe(true));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('region', { name: /safeguarding/ })).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
