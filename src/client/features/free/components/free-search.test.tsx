import type { FreeFacilitator, FreeResult } from '@shared/schemas/free';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { EMPTY_SEARCH } from '../lib/free-model';
import { FreeSearch } from './free-search';

const DAY = '2026-12-02';

const card = (userId: number, free: boolean): FreeFacilitator => ({
  userId,
  name: `Person ${String(userId).padStart(3, '0')}`,
  email: null,
  area: 'North',
  status: free ? 'available' : 'unavailable',
  startTime: '',
  endTime: '',
  availabilityNotes: '',
  fit: null,
  bookingsCount: 0,
  bookings: [],
  notes: [],
  safeguarding: { state: 'valid', reasons: [] },
  free,
  reasons: free ? [] : ['Unavailable'],
});

/** One page of everyone shown, with the whole list's counts. */
const page = (facilitators: FreeFacilitator[], more: Partial<FreeResult>): FreeResult => ({
  date: DAY,
  from: null,
  to: null,
  areas: [],
  include: 'all',
  availableAreas: ['North'],
  facilitators,
  freeCount: 0,
  leftOutCount: 0,
  nextCursor: null,
  ...more,
});

/** The addresses who is free was read at, answered by `answer`. */
function freeApi(answer: (url: URL) => FreeResult) {
  const reads: URL[] = [];
  server.use(
    http.get('/api/staff/free', ({ request }) => {
      const url = new URL(request.url);
      reads.push(url);
      return HttpResponse.json(answer(url));
    }),
  );
  return reads;
}

const renderFree = () =>
  renderWithApp(
    <FreeSearch search={{ ...EMPTY_SEARCH, date: DAY, everyone: true }} onSearchChange={() => {}} />,
  );

describe('FreeSearch: everyone shown, a page at a time', () => {
  test('reads the next page as the last cards read are drawn; the counts are the whole list’s', async () => {
    const reads = freeApi((url) =>
      url.searchParams.get('cursor') === 'after-2'
        ? page([card(3, false)], { freeCount: 2, leftOutCount: 1 })
        : page([card(1, true), card(2, true)], { freeCount: 2, leftOutCount: 1, nextCursor: 'after-2' }),
    );
    renderFree();
    expect(await screen.findByText('Person 003')).toBeVisible();
    expect(screen.getAllByTestId('free-row').map((row) => row.dataset.name)).toEqual([
      'Person 001',
      'Person 002',
      'Person 003',
    ]);
    expect(screen.getByTestId('free-summary')).toHaveTextContent(/^2 free on /);
    expect(screen.getByTestId('free-left-out')).toHaveTextContent('1 not free, listed after them');
    expect(reads.map((url) => [url.searchParams.get('include'), url.searchParams.get('cursor')])).toEqual([
      ['all', null],
      ['all', 'after-2'],
    ]);
    expect(reads[0]!.searchParams.get('limit')).toBe('100');
  });

  test('a long list counts every card for assistive technology and reads one page on opening', async () => {
    const first = Array.from({ length: 100 }, (_, i) => card(i + 1, true));
    const reads = freeApi(() => page(first, { freeCount: 180, leftOutCount: 120, nextCursor: 'after-100' }));
    renderFree();
    expect(await screen.findByTestId('free-summary')).toHaveTextContent(/^180 free on /);
    expect(screen.getByRole('region', { name: 'Facilitators, best match first, scrollable' })).toBeVisible();
    expect(reads).toHaveLength(1);
  });
});
