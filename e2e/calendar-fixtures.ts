/**
 * Fixture data of e2e/availability-calendar.spec.ts, shared by the spec and by
 * e2e/server-with-fixtures.ts. Bookings come from SharePoint in the product (there is deliberately no
 * API to create them), so the server writes these into the SharePoint emulator's Bookings list and
 * they arrive through the real refresh it runs before listening, matched by freelancer ID.
 */
import { monthWeekdays, today } from './dates';

export interface CalendarUser {
  username: string;
  password: string;
  displayName: string;
  /** links the emulator's bookings (FreelancerID) to this user */
  freelancerId: string;
}

/** One facilitator with bookings per Playwright project, so the two projects never share state. */
export const CALENDAR_USERS = {
  desktop: {
    username: 'cal.desktop@example.org',
    password: 'cal-desktop-2026',
    displayName: 'Dana Desk',
    freelancerId: 'E2E-CAL-DESKTOP',
  },
  phone: {
    username: 'cal.phone@example.org',
    password: 'cal-phone-2026',
    displayName: 'Pat Phone',
    freelancerId: 'E2E-CAL-PHONE',
  },
} satisfies Record<string, CalendarUser>;

/** "Today" as the browser on this machine sees it (the spec and the server run on the same host). */
export function hostToday(): string {
  return today();
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

/** A booking as the fixture server writes it to the emulator (null/absent columns stay empty). */
export interface FixtureBooking {
  freelancerId: string;
  title: string;
  date: string;
  startTime?: string;
  endTime?: string;
  location?: string;
  schoolId?: string;
  schoolName?: string;
  schoolAddress?: string;
  schoolPostcode?: string;
  program?: string;
  timeSlot?: string;
  deliveryType?: string;
  year?: string;
}

export function calendarBookings(today = hostToday()): FixtureBooking[] {
  const days = fixtureDays(today);
  return Object.values(CALENDAR_USERS).flatMap((user) => [
    { freelancerId: user.freelancerId, date: days.full, ...FULL_BOOKING },
    { freelancerId: user.freelancerId, date: days.bare, title: 'Drama Session' },
    ...Array.from({ length: 6 }, (_, i) => ({
      freelancerId: user.freelancerId,
      date: days.busy,
      title: `Art Class ${i + 1}`,
      startTime: `${String(9 + i).padStart(2, '0')}:00`,
      endTime: `${String(10 + i).padStart(2, '0')}:00`,
      schoolName: `School ${i + 1}`,
    })),
  ]);
}

/** The Bookings list columns (the portal's default names) of a fixture booking. */
export function bookingFields(booking: FixtureBooking): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    Title: booking.title,
    FreelancerID: booking.freelancerId,
    SessionDate: booking.date,
    StartTime: booking.startTime,
    EndTime: booking.endTime,
    Location: booking.location,
    SchoolID: booking.schoolId,
    SchoolName: booking.schoolName,
    SchoolAddress: booking.schoolAddress,
    SchoolPostcode: booking.schoolPostcode,
    Programme: booking.program,
    TimeSlot: booking.timeSlot,
    DeliveryType: booking.deliveryType,
    Year: booking.year,
    Status: 'Confirmed',
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
