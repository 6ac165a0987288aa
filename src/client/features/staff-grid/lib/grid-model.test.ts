import { staffViewDays } from '@shared/calendar';
import type { PublicUser } from '@shared/schemas/users';
import { describe, expect, it } from 'vitest';
import { cellTone, lastUpdatedText, openingColumn, rowLookup, viewLabel } from './grid-model';

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
  deactivatedAt: null,
  anonymisedAt: null,
});

describe('grid model', () => {
  it('colours: status, lighter with booking, grey empty, blue booking only', () => {
    expect(cellTone('available', false)).toBe('available');
    expect(cellTone('limited', true)).toBe('limited-booked');
    expect(cellTone(undefined, false)).toBe('empty');
    expect(cellTone(undefined, true)).toBe('booked-only');
  });

  it('last updated comes from lastAvailabilityUpdatedAt, else the latest availability date', () => {
    const lookup = rowLookup({
      availability: [
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
      bookings: [],
      notes: [],
    });
    expect(lastUpdatedText(user(3, 'beth', null), lookup.latestDate)).toBe('Last updated: 9 Mar 2026');
    expect(lastUpdatedText(user(2, 'Adam', null), undefined)).toBe('No availability set');
    const stamped = { ...user(2, 'Adam', null), lastAvailabilityUpdatedAt: '2026-02-10T12:00:00.000Z' };
    expect(lastUpdatedText(stamped, '2026-03-09')).toBe('Last updated: 10 Feb 2026');
  });

  it("finds a row's day, counts its bookings and gives its note mark", () => {
    const day = (id: number, date: string, status: 'available' | 'limited') => ({
      id,
      userId: 3,
      date,
      status,
      startTime: '',
      endTime: '',
      notes: '',
      syncedToSharePoint: false,
    });
    const booking = (id: number, date: string) =>
      ({ id, userId: 3, date }) as unknown as Parameters<typeof rowLookup>[0]['bookings'][number];
    const lookup = rowLookup({
      availability: [day(1, '2026-03-02', 'available'), day(3, '2026-03-03', 'limited')],
      bookings: [booking(1, '2026-03-02'), booking(2, '2026-03-02'), booking(4, '2026-03-04')],
      notes: [{ date: '2026-03-03', priority: 'urgent' }],
    });
    expect(lookup.availability('2026-03-02')?.status).toBe('available');
    expect(lookup.availability('2026-03-03')?.status).toBe('limited');
    expect(lookup.availability('2026-03-04')).toBeUndefined();
    expect(lookup.bookingCount('2026-03-02')).toBe(2);
    expect(lookup.bookingCount('2026-03-03')).toBe(0);
    expect(lookup.bookingCount('2026-03-04')).toBe(1);
    expect(lookup.notePriority('2026-03-03')).toBe('urgent');
    expect(lookup.notePriority('2026-03-02')).toBeUndefined();
    expect(lookup.latestDate).toBe('2026-03-03');
  });

  it('labels the view', () => {
    expect(viewLabel('month', '2026-03-15')).toBe('March 2026');
    expect(viewLabel('week', '2026-03-04')).toBe('2 Mar – 6 Mar 2026');
    expect(viewLabel('week', '2025-12-31')).toBe('29 Dec 2025 – 2 Jan 2026');
    expect(viewLabel('fortnight', '2026-11-23')).toBe('23 Nov – 4 Dec 2026');
    expect(viewLabel('fortnight', '2026-12-27')).toBe('21 Dec 2026 – 1 Jan 2027');
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
