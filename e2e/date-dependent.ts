/**
 * The browser tests whose expectations are worked out from today's date, by file: the one list that
 * `npm run test:days` (scripts/on-other-days.ts) runs again on the days that break calendars. A test
 * belongs here when what it checks is a date that moves with today's: the month or week a screen opens
 * on, today's place in a grid, a default date or range, the range a screen asks for, or a move to
 * another month that only some days need. A test that only places its data on a day worked out from
 * today, well inside what the screen shows, and then checks something else (text, dialogs, delivery)
 * does not belong: the run on the real date runs it, and the tests here check that the day is shown.
 * The script refuses a title that is no longer in its file, so a renamed test cannot drop out unnoticed.
 */
export const DATE_DEPENDENT_TESTS: Record<string, string[]> = {
  'availability-calendar.spec.ts': [
    'loads, asks for exactly the months it shows, and moves by toolbar and keyboard',
    'the month: its dates, statuses in the legend colours, locked booked days, chips by keyboard',
    'Bulk Update Availability: defaults, warnings, saving, skipped booked days',
  ],
  'exports.spec.ts': ['a facilitator downloads their own availability for the month or a chosen range'],
  'free.spec.ts': ['staff find who is free on a day, best match first, and see why the rest are left out'],
  'safeguarding.spec.ts': [
    'staff see, filter and record safeguarding checks; who is free leaves out the expired and missing',
  ],
  'staff-dashboard.spec.ts': [
    'the month grid by default, its first page and cells; the week view and navigation; Manage Users',
  ],
  'staff-usability.spec.ts': [
    'desktop keeps the set widths; a phone shows a whole working week beside the names; the month opens on this week and Today brings it back',
  ],
};
