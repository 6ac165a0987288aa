import { describe, expect, it } from 'vitest';
import { Clock } from './clock';
import { generateBookings, generateFacilitators, generateSchools, seedPortalSite } from './fixtures';
import { Store } from './store';

const term = { start: '2026-04-13', end: '2026-07-17' };

describe('booking generator', () => {
  const schools = generateSchools(5, 's');
  const ids = generateFacilitators(4, 'f').map((f) => f.freelancerId);

  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateBookings({ seed: 7, count: 50, term, freelancerIds: ids, schools });
    const b = generateBookings({ seed: 7, count: 50, term, freelancerIds: ids, schools });
    const c = generateBookings({ seed: 8, count: 50, term, freelancerIds: ids, schools });
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('keeps bookings on term weekdays, with known freelancers and schools, some cancelled', () => {
    const bookings = generateBookings({
      seed: 'x',
      count: 300,
      term,
      freelancerIds: ids,
      schools,
      cancelledRatio: 0.1,
    });
    expect(bookings).toHaveLength(300);
    for (const b of bookings) {
      expect(b.SessionDate >= term.start && b.SessionDate <= term.end).toBe(true);
      expect([0, 6]).not.toContain(new Date(`${b.SessionDate}T00:00:00Z`).getUTCDay());
      expect(ids).toContain(b.FreelancerID);
      expect(schools.map((s) => s.schoolId)).toContain(b.SchoolID);
      expect(b.StartTime < b.EndTime).toBe(true);
    }
    const cancelled = bookings.filter((b) => b.Status === 'Cancelled').length;
    expect(cancelled).toBeGreaterThan(10);
    expect(cancelled).toBeLessThan(60);
    expect(bookings.some((b) => b.SchoolName === undefined)).toBe(true);
  });
});

describe('seedPortalSite', () => {
  it('creates the four lists with items and returns what it seeded', () => {
    const store = new Store(new Clock());
    const portal = seedPortalSite(store, {
      seed: 'p',
      facilitatorCount: 3,
      schoolCount: 4,
      bookingCount: 20,
    });
    expect(portal.siteUrl).toBe('https://contoso.sharepoint.com/sites/ArtsFacilitators');
    expect(store.itemsOf(portal.lists.facilitators!)).toHaveLength(3);
    expect(store.itemsOf(portal.lists.schools!)).toHaveLength(4);
    expect(store.itemsOf(portal.lists.availability!)).toHaveLength(0);
    expect(portal.bookings).toHaveLength(20);
    expect(portal.bookings[0]!.fields.SessionDate).toMatch(/T(00|23):00:00Z$/);
    expect(portal.facilitators.map((f) => f.freelancerId)).toEqual(['1001', '1002', '1003']);
  });

  it('supports other list names, omitted lists and changed indexes', () => {
    const store = new Store(new Clock());
    const portal = seedPortalSite(store, {
      listNames: { bookings: 'School Sessions' },
      omitLists: ['schools'],
      indexed: { bookings: [] },
      bookingCount: 2,
    });
    expect(portal.lists.schools).toBeUndefined();
    expect(portal.lists.bookings!.displayName).toBe('School Sessions');
    expect(portal.lists.bookings!.columns.some((c) => c.indexed)).toBe(false);
  });
});
