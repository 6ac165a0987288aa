/**
 * Fixture data of e2e/availability-calendar.spec.ts, shared by the spec and by
 * e2e/server-with-fixtures.ts (which inserts it before the server listens). Bookings come from
 * SharePoint in the product, so there is deliberately no API to create them.
 */
import { monthWeekdays, todayIn } from '../src/shared/calendar';

export interface CalendarUser {
  username: string;
  password: string;
  displayName: string;
}

/** One facilitator with bookings per Playwright project, so the two projects never share state. */
export const CALENDAR_USERS = {
  desktop: {
    username: 'cal.desktop@example.org',
    password: 'cal-desktop-2026',
    displayName: 'Dana Desk',
  },
  phone: {
    username: 'cal.phone@example.org',
    password: 'cal-phone-2026',
    displayName: 'Pat Phone',
  },
} satisfies Record<string, CalendarUser>;

/** "Today" as the browser on this machine sees it (the spec and the server run on the same host). */
export function hostToday(): string {
  return todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** The weekdays of the current month that carry fixture bookings. */
export function fixtureDays(today = hostToday()) {
  const days = monthWeekdays(today);
  return {
    /** one booking with every field */
    full: days[2]!,
    /** one booking with no optional fields (the fallbacks) */
    bare: days[6]!,
    /** six bookings: four chips and "+2 more" */
    busy: days[10]!,
  };
}

export const FULL_BOOKING = {
  title: 'Dance Workshop',
  startTime: '09:30',
  endTime: '11:00',
  location: 'Main hall',
  schoolId: 'SCH-1',
  schoolName: 'Hillside Primary School',
  schoolAddress: '12 Hill Road, Leeds',
  schoolPostcode: 'LS1 4AB',
  program: 'Creative Movement',
  timeSlot: 'Morning',
  deliveryType: 'Virtual',
  year: 'Year 4',
};

export function calendarBookings(today = hostToday()) {
  const days = fixtureDays(today);
  return Object.entries(CALENDAR_USERS).flatMap(([project, user]) => [
    { username: user.username, sharePointId: `e2e-${project}-full`, date: days.full, ...FULL_BOOKING },
    { username: user.username, sharePointId: `e2e-${project}-bare`, date: days.bare, title: 'Drama Session' },
    ...Array.from({ length: 6 }, (_, i) => ({
      username: user.username,
      sharePointId: `e2e-${project}-busy-${i + 1}`,
      date: days.busy,
      title: `Art Class ${i + 1}`,
      startTime: `${String(9 + i).padStart(2, '0')}:00`,
      endTime: `${String(10 + i).padStart(2, '0')}:00`,
      schoolName: `School ${i + 1}`,
    })),
  ]);
}
