/**
 * The browser tests whose expectations are worked out from today's date, by file: the one list that
 * `npm run test:days` (scripts/on-other-days.ts) runs again on the days that break calendars. A test
 * belongs here when what it checks moves with the date: the month or week a screen opens on, today's
 * place in a grid, a default range, or days it picks relative to today. The script refuses a title
 * that is no longer in its file, so a renamed test cannot drop out unnoticed.
 */
export const DATE_DEPENDENT_TESTS: Record<string, string[]> = {
  'availability-calendar.spec.ts': [
    'shows the loading state, then asks for exactly the visible range',
    'toolbar: title, month label, previous / next, Today',
    'grid: weekdays only, day numbers, status bars, borrowed days inert, today highlighted',
    'Bulk Update Availability: defaults, warnings, saving, skipped booked days',
    'keyboard: roving tab stop, arrow keys, Enter opens the day',
  ],
  'calendar-feed.spec.ts': ['turn the feed on, copy the link, subscribe to it, get a new link, turn it off'],
  'exports.spec.ts': ['a facilitator downloads their own availability for the month or a chosen range'],
  'facilitator-usability.spec.ts': [
    'a day cell shows its whole time range and hints at notes; the legend names "Not set"',
    'someone who never marked a day is shown how to start, until they do',
    'Escape closes the dialog first, even with a toast showing',
  ],
  'free.spec.ts': ['staff find who is free on a day, best match first, and see why the rest are left out'],
  'history.spec.ts': ['changes show in the facilitator history, the staff day dialog and the users page'],
  'hostile-text.spec.ts': ['shows as literal text on the facilitator and staff screens'],
  'offers.spec.ts': ['a facilitator accepts an offer from the calendar'],
  'patterns.spec.ts': [
    'preview shows the days, the booked day skipped and the saved day replaced; saving sets them',
    'checks the form, and a change after the preview asks for a new one',
  ],
  'reminders.spec.ts': [
    'Send reminder: emails the partial and missing once a day, says what was sent and skipped',
  ],
  'safeguarding.spec.ts': [
    'staff see, filter and record safeguarding checks; who is free leaves out the expired and missing',
  ],
  'sharepoint-problems.spec.ts': [
    'a refused bookings refresh: staff read what failed and what to do until a refresh succeeds',
  ],
  'sharepoint.spec.ts': [
    'availability the facilitator saves is delivered to the SharePoint Availability list',
  ],
  'staff-dashboard.spec.ts': [
    'loading text, headings, buttons, and the month grid by default',
    'week view, navigation and exactly the visible range requested',
    'a facilitator gets no staff data',
  ],
  'staff-usability.spec.ts': [
    'a saved day without times stays without times when only its status changes; the clearing choice is "none"',
    'marking a booked day unavailable asks first and names the booking; times typed oddly in SharePoint read right',
    'desktop keeps the set widths; a phone shows a whole working week beside the names',
    'the month opens scrolled to this week and Today brings it back',
    'this week and next side by side across a month end: 23 November to 4 December, December loaded too',
    'each result opens that day for that person and shows how to reach them; a long address wraps',
  ],
};
