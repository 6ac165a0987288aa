import { staffViewDays } from '@shared/calendar';
import type { PublicUser } from '@shared/schemas/users';
import { describe, expect, it } from 'vitest';
import {
  areaOptions,
  COLUMN_OVERSCAN,
  cellTone,
  columnWindow,
  firstFacilitatorIds,
  gridFacilitators,
  indexGridData,
  lastUpdatedText,
  NO_AREA,
  openingColumn,
  viewLabel,
  visibleFacilitators,
} from './grid-model';

const user = (
  id: number,
  displayName: string | null,
  area: string | null,
  role = 'facilitator',
): PublicUser => ({
  id,
  username: `u${id}@example.org`,
  displayName,
  email: null,
  freelancerId: null,
  role,
  area,
  lastAvailabilityUpdatedAt: null,
  version: 1,
});

const users = [
  user(1, 'zoe', 'North'),
  user(2, 'Adam', 'South'),
  user(3, 'beth', null),
  user(4, 'Staff Person', 'North', 'staff'),
  user(5, null, '  '),
];

describe('grid model', () => {
  it('drops staff and sorts by display name (or username) case-insensitively', () => {
    expect(gridFacilitators(users).map((u) => u.id)).toEqual([2, 3, 5, 1]);
  });

  it('derives areas A-Z with "No area" last for users without one (blank counts as none)', () => {
    expect(areaOptions(gridFacilitators(users))).toEqual([
      { value: 'North', label: 'North' },
      { value: 'South', label: 'South' },
      { value: NO_AREA, label: 'No area' },
    ]);
  });

  it('shows nobody when no area is selected, and honours deselected facilitators', () => {
    const all = gridFacilitators(users);
    expect(visibleFacilitators(all, new Set(), new Set())).toEqual([]);
    expect(visibleFacilitators(all, new Set([NO_AREA]), new Set()).map((u) => u.id)).toEqual([3, 5]);
    expect(
      visibleFacilitators(all, new Set(['North', 'South', NO_AREA]), new Set([3])).map((u) => u.id),
    ).toEqual([2, 5, 1]);
  });

  it('colours: status, lighter with booking, grey empty, blue booking only', () => {
    expect(cellTone('available', false)).toBe('available');
    expect(cellTone('limited', true)).toBe('limited-booked');
    expect(cellTone(undefined, false)).toBe('empty');
    expect(cellTone(undefined, true)).toBe('booked-only');
  });

  it('last updated comes from lastAvailabilityUpdatedAt, else the latest availability date', () => {
    const index = indexGridData(
      [
        {
          id: 1,
          userId: 3,
          date: '2026-03-02',
          status: 'available',
          startTime: '',
          endTime: '',
          notes: '',
          syncedToSharePoint: false,
        },
        {
          id: 2,
          userId: 3,
          date: '2026-03-09',
          status: 'limited',
          startTime: '',
          endTime: '',
          notes: '',
          syncedToSharePoint: false,
        },
      ],
      [],
    );
    expect(lastUpdatedText(user(3, 'beth', null), index.latestDate.get(3))).toBe('Last updated: 9 Mar 2026');
    expect(lastUpdatedText(user(2, 'Adam', null), index.latestDate.get(2))).toBe('No availability set');
    const stamped = { ...user(2, 'Adam', null), lastAvailabilityUpdatedAt: '2026-02-10T12:00:00.000Z' };
    expect(lastUpdatedText(stamped, '2026-03-09')).toBe('Last updated: 10 Feb 2026');
  });

  it("finds each facilitator's day and counts its bookings, ignoring bookings without a facilitator", () => {
    const day = (id: number, userId: number, date: string, status: 'available' | 'limited') => ({
      id,
      userId,
      date,
      status,
      startTime: '',
      endTime: '',
      notes: '',
      syncedToSharePoint: false,
    });
    const booking = (id: number, userId: number | null, date: string) =>
      ({ id, userId, date }) as unknown as Parameters<typeof indexGridData>[1][number];
    const index = indexGridData(
      [
        day(1, 3, '2026-03-02', 'available'),
        day(2, 4, '2026-03-02', 'limited'),
        day(3, 3, '2026-03-03', 'limited'),
      ],
      [
        booking(1, 3, '2026-03-02'),
        booking(2, 3, '2026-03-02'),
        booking(3, null, '2026-03-03'),
        booking(4, 4, '2026-03-03'),
      ],
    );
    expect(index.availability(3, '2026-03-02')?.status).toBe('available');
    expect(index.availability(4, '2026-03-02')?.status).toBe('limited');
    expect(index.availability(3, '2026-03-03')?.status).toBe('limited');
    expect(index.availability(4, '2026-03-03')).toBeUndefined();
    expect(index.availability(9, '2026-03-02')).toBeUndefined();
    expect(index.bookingCount(3, '2026-03-02')).toBe(2);
    expect(index.bookingCount(3, '2026-03-03')).toBe(0);
    expect(index.bookingCount(4, '2026-03-03')).toBe(1);
    expect(index.bookingCount(4, '2026-03-02')).toBe(0);
  });

  it("the first rows' ids are the grid's opening order, staff left out, cut at the count asked for", () => {
    expect(firstFacilitatorIds(users, 3)).toEqual([2, 3, 5]);
    expect(firstFacilitatorIds(users, 10)).toEqual([2, 3, 5, 1]);
    // names equal but for case keep the id order, as the grid does
    const twins = [user(9, 'Sam', null), user(7, 'sam', null), user(8, 'SAM', null)];
    expect(firstFacilitatorIds(twins, 2)).toEqual([7, 8]);
    expect(gridFacilitators(twins).map((u) => u.id)).toEqual([7, 8, 9]);
  });

  it('an index of the first rows only says which facilitators it has; a whole one has everyone', () => {
    const first = indexGridData([], [], new Set([2, 3]));
    expect([1, 2, 3, 5].map((id) => first.loaded(id))).toEqual([false, true, true, false]);
    const whole = indexGridData([], []);
    expect([1, 2, 3, 5].map((id) => whole.loaded(id))).toEqual([true, true, true, true]);
  });

  it('labels the view', () => {
    expect(viewLabel('month', '2026-03-15')).toBe('March 2026');
    expect(viewLabel('week', '2026-03-04')).toBe('2 Mar – 6 Mar 2026');
    expect(viewLabel('week', '2025-12-31')).toBe('29 Dec 2025 – 2 Jan 2026');
    expect(viewLabel('fortnight', '2026-11-23')).toBe('23 Nov – 4 Dec 2026');
    expect(viewLabel('fortnight', '2026-12-27')).toBe('21 Dec 2026 – 1 Jan 2027');
  });

  it('draws the day columns in view and the overscan asked for either side, never past the range', () => {
    const month = { count: 30, columnWidth: 80, firstColumnWidth: 200 };
    // 1,000 px wide: 800 px of days beside the names, columns 0-9 in view
    expect(columnWindow(0, 1000, month, COLUMN_OVERSCAN)).toEqual({ first: 0, last: 9 + COLUMN_OVERSCAN });
    // scrolled 40 px: column 0 half hidden under the names, column 10 half in view
    expect(columnWindow(40, 1000, month, COLUMN_OVERSCAN)).toEqual({ first: 0, last: 10 + COLUMN_OVERSCAN });
    // scrolled to column 12
    expect(columnWindow(960, 1000, month, COLUMN_OVERSCAN)).toEqual({
      first: 12 - COLUMN_OVERSCAN,
      last: 21 + COLUMN_OVERSCAN,
    });
    // scrolled to the end: the last column is 29
    expect(columnWindow(200 + 30 * 80 - 1000, 1000, month, COLUMN_OVERSCAN)).toEqual({
      first: 20 - COLUMN_OVERSCAN,
      last: 29,
    });
    // wider than the range: every column
    expect(columnWindow(0, 4000, month, COLUMN_OVERSCAN)).toEqual({ first: 0, last: 29 });
    // a view narrower than the names' column still draws the column under its edge
    expect(columnWindow(160, 150, month, COLUMN_OVERSCAN)).toEqual({ first: 0, last: 2 + COLUMN_OVERSCAN });
    expect(columnWindow(0, 1000, { ...month, count: 0 }, COLUMN_OVERSCAN)).toEqual({ first: 0, last: -1 });
    // the overscan asked for: none draws exactly the columns in view
    expect(columnWindow(960, 1000, month, 0)).toEqual({ first: 12, last: 21 });
  });
});

describe('openingColumn', () => {
  // December 2026's weekdays: Tuesday 1 to Thursday 31
  const december = staffViewDays('month', '2026-12-15');

  it("opens on this week's Monday when the month holds it", () => {
    expect(december[openingColumn(december, '2026-12-09')]).toBe('2026-12-07');
    expect(december[openingColumn(december, '2026-12-13')]).toBe('2026-12-07'); // a Sunday
    expect(december[openingColumn(december, '2026-12-31')]).toBe('2026-12-28');
  });

  it("opens on the month's first day when this week began in the month before", () => {
    // Monday 30 November is not in the month: Tuesday 1 December must not hide under the names
    expect(openingColumn(december, '2026-12-01')).toBe(0);
    expect(openingColumn(december, '2026-12-02')).toBe(0);
    expect(openingColumn(december, '2026-12-04')).toBe(0);
  });

  it('opens at the start when no day of this week is in the view', () => {
    // August 2026 starts on a Saturday: its first weekday is Monday 3 August
    const august = staffViewDays('month', '2026-08-15');
    expect(openingColumn(august, '2026-08-01')).toBe(0);
    expect(openingColumn(december, '2027-01-04')).toBe(0);
    expect(openingColumn(december, '2026-11-27')).toBe(0);
    expect(openingColumn([], '2026-12-02')).toBe(0);
  });
});
