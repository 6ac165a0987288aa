/**
 * Fixture data of e2e/sharepoint.spec.ts, shared with e2e/server-with-fixtures.ts: one facilitator per
 * Playwright project with a known freelancer ID and area, and the bookings the emulator holds for them
 * when the server starts (they arrive through the start-up refresh). The spec adds more during the run.
 */

import { type CalendarUser, type FixtureBooking, hostToday } from './calendar-fixtures';
import { monthWeekdays } from './dates';

export interface SharePointUser extends CalendarUser {
  /** a staff-grid area no other spec uses, so the area filter shows this user alone */
  area: string;
}

export const SHAREPOINT_USERS = {
  desktop: {
    username: 'sp.desktop@example.org',
    password: 'sp-desktop-2026',
    displayName: 'Sharon Point',
    freelancerId: 'E2E-SP-DESKTOP',
    area: 'E2E SharePoint desktop',
  },
  phone: {
    username: 'sp.phone@example.org',
    password: 'sp-phone-2026',
    displayName: 'Graham Feed',
    freelancerId: 'E2E-SP-PHONE',
    area: 'E2E SharePoint phone',
  },
} satisfies Record<string, SharePointUser>;

/** Weekdays of the current month the SharePoint spec uses. */
export function sharePointDays(today = hostToday()) {
  const days = monthWeekdays(today);
  return {
    /** booked in the emulator from the start */
    seeded: days[3]!,
    /** availability the facilitator saves (never booked) */
    availability: days[1]!,
    /** where the spec adds new bookings during the run: the first of these still free */
    candidates: days.slice(12),
  };
}

export function sharePointBookings(today = hostToday()): FixtureBooking[] {
  const { seeded } = sharePointDays(today);
  return Object.values(SHAREPOINT_USERS).map((user) => ({
    freelancerId: user.freelancerId,
    date: seeded,
    title: 'Puppetry Taster',
    startTime: '13:00',
    endTime: '14:30',
    schoolName: 'Brookfield Academy',
  }));
}
