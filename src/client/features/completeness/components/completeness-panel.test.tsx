import type { CompletenessResponse, FacilitatorCompleteness } from '@shared/schemas/completeness';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import type { CompletenessOrder } from '../api/completeness-api';
import { CompletenessPanel } from './completeness-panel';

const person = (userId: number, name: string, setDays: number): FacilitatorCompleteness => ({
  userId,
  name,
  email: `${name.toLowerCase()}@example.org`,
  area: 'North',
  status: setDays === 0 ? 'missing' : setDays >= 22 ? 'complete' : 'partial',
  setDays,
  weekdays: 22,
  lastRemindedAt: null,
  remindedToday: false,
});

const ann = person(1, 'Ann', 22);
const bob = person(2, 'Bob', 3);
const cy = person(3, 'Cy', 0);

/** The server's pages: two people, then one, in the order asked for; records each address asked. */
function completenessApi() {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/staff/completeness', ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const order = query.get('sort') === 'count' ? [cy, bob, ann] : [ann, bob, cy];
      const second = query.get('cursor') === 'next';
      const page: CompletenessResponse = {
        month: '2031-03',
        label: 'March 2031',
        weekdays: 22,
        areas: ['North'],
        counts: { complete: 1, partial: 1, missing: 1 },
        matching: 3,
        remindableIds: [2, 3],
        facilitators: second ? order.slice(2) : order.slice(0, 2),
        nextCursor: second ? null : 'next',
      };
      return HttpResponse.json(page);
    }),
  );
  return asked;
}

function Panel({ onSelected }: { onSelected: (ids: number[]) => void }) {
  const [order, setOrder] = useState<CompletenessOrder>({ sort: 'name', direction: 'ascending' });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  return (
    <CompletenessPanel
      month="2031-03"
      area=""
      onMonthChange={() => {}}
      onAreaChange={() => {}}
      order={order}
      onOrderChange={setOrder}
      selected={selected}
      onSelectedChange={(next) => {
        setSelected(next);
        onSelected([...next]);
      }}
    />
  );
}

const names = () => screen.getAllByTestId('completeness-name').map((cell) => cell.textContent);

describe('CompletenessPanel: a page at a time, ordered by the server', () => {
  test('reads the next page as the last rows are drawn, and counts everyone from the summary', async () => {
    const asked = completenessApi();
    renderWithApp(<Panel onSelected={() => {}} />);
    expect(await screen.findByText('Cy')).toBeVisible();
    expect(names()).toEqual(['Ann', 'Bob', 'Cy']);
    expect(asked.map((q) => q.get('cursor'))).toEqual([null, 'next']);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '4');
    expect(within(screen.getByTestId('count-missing')).getByText('1')).toBeVisible();
  });

  test('a column heading asks the server for that order and shows the rows as they come', async () => {
    const asked = completenessApi();
    const { user } = renderWithApp(<Panel onSelected={() => {}} />);
    await screen.findByText('Cy');
    await user.click(screen.getByRole('button', { name: 'Weekdays set' }));
    await expect.poll(() => names()).toEqual(['Cy', 'Bob', 'Ann']);
    expect(asked.at(-2)?.get('sort')).toBe('count');
    expect(asked.at(-2)?.get('direction')).toBe('ascending');
  });

  test('the header checkbox chooses every partial and missing one the server names', async () => {
    completenessApi();
    const chosen: number[][] = [];
    const { user } = renderWithApp(<Panel onSelected={(ids) => chosen.push(ids)} />);
    await screen.findByText('Cy');
    await user.click(screen.getByRole('checkbox', { name: 'Choose everyone who is partial or missing' }));
    expect(chosen.at(-1)).toEqual([2, 3]);
  });
});
