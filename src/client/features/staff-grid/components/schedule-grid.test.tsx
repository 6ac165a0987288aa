import type { StaffGridRow } from '@shared/schemas/staff-grid';
import type { PublicUser } from '@shared/schemas/users';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { ScheduleGrid } from './schedule-grid';

const row = (user: PublicUser): StaffGridRow => ({
  user,
  availability: [],
  bookings: [],
  notes: [],
  safeguarding: { state: 'valid', reasons: [] },
});

const renderGrid = (rows: StaffGridRow[]) =>
  renderWithApp(
    <ScheduleGrid
      rows={rows}
      matching={rows.length}
      total={rows.length}
      areas={[]}
      hasMore={false}
      onLoadMore={() => {}}
      view="week"
      date="2026-03-04"
      today="2026-03-04"
      onViewChange={() => {}}
      onDateChange={() => {}}
      onCellClick={() => {}}
      onFiltersChange={() => {}}
    />,
  );

const gridRow = async (user: PublicUser) =>
  (await screen.findAllByTestId('grid-row')).find((tr) => tr.dataset.userId === String(user.id))!;

/*
 * jsdom lays nothing out, so the grid's scroll area would measure 0 px high and the virtualised
 * grid would draw no rows: the area is given the height a desktop window gives it.
 */
const layout = () =>
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this.getAttribute('data-testid') === 'grid-scroll' ? 560 : 0;
  });
let laidOut: ReturnType<typeof layout>;
beforeEach(() => {
  laidOut = layout();
});
afterEach(() => laidOut.mockRestore());

describe('ScheduleGrid: the name column', () => {
  test('a row shows the email under the name, or nothing when there is none, never the username', async () => {
    const cy = anAccount({
      id: 2,
      username: 'usability-cy@example.org',
      displayName: 'Cy Clay',
      email: 'cy@school.example.org',
    });
    const dee = anAccount({
      id: 3,
      username: 'usability-dee@example.org',
      displayName: 'Dee Dye',
      email: null,
    });
    renderGrid([row(cy), row(dee)]);

    const cyRow = await gridRow(cy);
    const deeRow = await gridRow(dee);
    expect(within(cyRow).getByTestId('row-name')).toHaveTextContent('Cy Clay');
    expect(within(cyRow).getByTestId('row-email')).toHaveTextContent('cy@school.example.org');
    expect(within(deeRow).getByTestId('row-name')).toHaveTextContent('Dee Dye');
    expect(within(deeRow).queryByTestId('row-email')).toBeNull();
    expect(cyRow).not.toHaveTextContent('usability-');
    expect(deeRow).not.toHaveTextContent('usability-');
  });
});
