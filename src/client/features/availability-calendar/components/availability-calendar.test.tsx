import { monthGrid, nextMonth, startOfMonth } from '@shared/calendar';
import type { Availability, BulkAvailabilityResult } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { browserToday } from '@/lib/browser-today';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { AvailabilityCalendar } from './availability-calendar';

/** The first weekday of this month: a day the calendar shows and lets the person open. */
const firstDay = () =>
  monthGrid(browserToday())
    .flat()
    .find((cell) => cell.inMonth)!.date;

/** A calendar with nothing saved and nothing booked; saves answer as `answer` says. */
function renderCalendar(path: '/api/availability' | '/api/availability/bulk', answer: () => Response) {
  let sent = 0;
  server.use(
    http.get('/api/availability', () => HttpResponse.json([])),
    http.get('/api/bookings', () => HttpResponse.json([])),
    http.post(path, () => {
      sent += 1;
      return answer();
    }),
  );
  const view = renderWithApp(<AvailabilityCalendar userId={7} />);
  return { ...view, sent: () => sent };
}

async function openDay(view: ReturnType<typeof renderCalendar>) {
  // the month drawn with its (empty) days read
  const cell = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`td[data-date="${firstDay()}"][data-status="none"]`);
    expect(found).not.toBeNull();
    return found!;
  });
  await view.user.click(cell);
  return screen.findByRole('dialog', { name: 'Update Availability' });
}

describe('AvailabilityCalendar: saving a day', () => {
  test("a refused save shows the server's message in an Error toast, and the dialog stays", async () => {
    const view = renderCalendar('/api/availability', () =>
      HttpResponse.json({ message: 'The database is resting' }, { status: 500 }),
    );
    const dialog = await openDay(view);
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The database is resting')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Update Availability' })).toBeVisible();
  });

  test('a save answered with no message shows the fallback', async () => {
    const view = renderCalendar('/api/availability', () => new HttpResponse('', { status: 502 }));
    const dialog = await openDay(view);
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('An error occurred. Please try again.')).toBeVisible();
  });

  test('an end before the start is refused in the dialog, and nothing is sent', async () => {
    const view = renderCalendar('/api/availability', () => HttpResponse.json({}));
    const dialog = await openDay(view);
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Start Time (optional)' }));
    await view.user.click(await screen.findByRole('option', { name: '3:00 PM' }));
    await view.user.click(within(dialog).getByRole('combobox', { name: 'End Time (optional)' }));
    await view.user.click(await screen.findByRole('option', { name: '10:00 AM' }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('End time must be after start time')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Update Availability' })).toBeVisible();
    expect(view.sent()).toBe(0);
  });
});

describe('AvailabilityCalendar: bulk update', () => {
  test("a refused bulk update shows the server's message in an Error toast, and the dialog stays", async () => {
    const view = renderCalendar('/api/availability/bulk', () =>
      HttpResponse.json({ message: 'Too many days' }, { status: 400 }),
    );
    await view.user.click(await screen.findByRole('button', { name: 'Bulk Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bulk Update Availability' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Apply Bulk Update' }));
    expect(await screen.findByText('Too many days')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Bulk Update Availability' })).toBeVisible();
    expect(view.sent()).toBe(1);
  });
});

describe('AvailabilityCalendar: opened at a day', () => {
  test('a link to a day opens its month with that day as the tab stop', async () => {
    const later = nextMonth(nextMonth(nextMonth(startOfMonth(browserToday()))));
    const day = monthGrid(later)
      .flat()
      .filter((cell) => cell.inMonth)[3]!.date;
    server.use(
      http.get('/api/availability', () => HttpResponse.json([])),
      http.get('/api/bookings', () => HttpResponse.json([])),
    );
    renderWithApp(<AvailabilityCalendar userId={7} openAt={day} />);
    const cell = await waitFor(() => {
      const found = document.querySelector<HTMLElement>(`td[data-date="${day}"][data-status="none"]`);
      expect(found).not.toBeNull();
      return found!;
    });
    expect(cell.querySelector('[tabindex="0"]') ?? cell).toHaveAttribute('tabindex', '0');
    expect(document.querySelector(`td[data-date="${browserToday()}"]`)).toBeNull();
  });
});

/*
 * The tests below run on a fixed day, Wednesday 8 July 2026: July 2026 starts on a Wednesday, so its
 * grid borrows Monday 29 and Tuesday 30 June, and every date they name is written out.
 */
const TODAY = '2026-07-08';
const atNoon = new Date('2026-07-08T12:00:00');

const aDay = (date: string, values: Partial<Availability> = {}): Availability => ({
  id: Number(date.replaceAll('-', '')),
  userId: 7,
  date,
  status: 'available',
  startTime: '',
  endTime: '',
  notes: '',
  syncedToSharePoint: true,
  ...values,
});

let bookingIds = 0;
const aBooking = (date: string, values: Partial<Booking> = {}): Booking => {
  bookingIds += 1;
  return {
    id: bookingIds,
    userId: 7,
    title: '',
    date,
    startTime: null,
    endTime: null,
    location: null,
    sharePointId: `SP-${bookingIds}`,
    schoolId: null,
    schoolName: null,
    schoolAddress: null,
    schoolPostcode: null,
    program: null,
    timeSlot: null,
    deliveryType: null,
    year: null,
    ...values,
  };
};

/** Thursday 2 July: one booking with every field. */
const FULL_DAY = '2026-07-02';
const fullBooking = aBooking(FULL_DAY, {
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
});
/** Thursday 9 July: one booking with nothing but its title. */
const BARE_DAY = '2026-07-09';
const bareBooking = aBooking(BARE_DAY, { title: 'Drama Session' });
/** Thursday 16 July: six bookings, more than a cell shows. */
const BUSY_DAY = '2026-07-16';
const busyBookings = Array.from({ length: 6 }, (_, i) =>
  aBooking(BUSY_DAY, {
    title: `Art Class ${i + 1}`,
    startTime: `${String(9 + i).padStart(2, '0')}:00`,
    endTime: `${String(10 + i).padStart(2, '0')}:00`,
    schoolName: `School ${i + 1}`,
  }),
);
const allBookings = [fullBooking, bareBooking, ...busyBookings];

/**
 * The calendar's reads and saves as the server answers them: the saved days (a save replaces its
 * day, a bulk update answers `bulkResult`) and the bookings. Records every request's path and query.
 */
function calendarApi({
  days = [] as Availability[],
  bookings = [] as Booking[],
  bulkResult = { updated: 0, skippedBookedDates: [] } as BulkAvailabilityResult,
} = {}) {
  const rows = new Map(days.map((day) => [day.date, day]));
  const requests: string[] = [];
  const saves: unknown[] = [];
  const bulks: unknown[] = [];
  const note = (request: Request) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
  };
  server.use(
    http.get('/api/availability', ({ request }) => {
      note(request);
      return HttpResponse.json([...rows.values()]);
    }),
    http.get('/api/bookings', ({ request }) => {
      note(request);
      return HttpResponse.json(bookings);
    }),
    http.post('/api/availability', async ({ request }) => {
      note(request);
      const body = (await request.json()) as Availability;
      saves.push(body);
      const row = aDay(body.date, body);
      rows.set(body.date, row);
      return HttpResponse.json(row);
    }),
    http.post('/api/availability/bulk', async ({ request }) => {
      note(request);
      bulks.push(await request.json());
      return HttpResponse.json(bulkResult);
    }),
  );
  return { requests, saves, bulks };
}

const dayCell = (date: string) => {
  const found = document.querySelector<HTMLElement>(`td[data-date="${date}"]`);
  expect(found, date).not.toBeNull();
  return found!;
};

/** The calendar of user 7 on TODAY, once its month is drawn with what it read. */
async function showCalendar(props: { neverMarked?: boolean } = {}) {
  const view = renderWithApp(<AvailabilityCalendar userId={7} {...props} />);
  await screen.findByRole('grid', { name: 'July 2026' });
  // the reads answered: the bookings' chips or the days' statuses are drawn
  await waitFor(() => expect(screen.queryByTestId('calendar-loading')).toBeNull());
  return view;
}

const chooseTime = async (
  view: ReturnType<typeof renderWithApp>,
  dialog: HTMLElement,
  field: 'Start Time (optional)' | 'End Time (optional)',
  label: string,
) => {
  await view.user.click(within(dialog).getByRole('combobox', { name: field }));
  await view.user.click(await screen.findByRole('option', { name: label }));
};

/** Called in a describe: its tests run with the date at `atNoon` (only Date is faked; timers run). */
function onTheFixedDay() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(atNoon);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

describe('AvailabilityCalendar: the month', () => {
  onTheFixedDay();

  test('shows the loading state until both reads answer, then asks for exactly the grid it draws', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const requests: string[] = [];
    server.use(
      http.get('/api/availability', async ({ request }) => {
        requests.push(new URL(request.url).search);
        await held;
        return HttpResponse.json([]);
      }),
      http.get('/api/bookings', ({ request }) => {
        requests.push(new URL(request.url).search);
        return HttpResponse.json([]);
      }),
    );
    renderWithApp(<AvailabilityCalendar userId={7} />);
    const loading = await screen.findByTestId('calendar-loading');
    expect(within(loading).getByRole('status')).toBeVisible();
    expect(within(loading).getByText('Please be patient while we load your profile')).toBeVisible();
    expect(
      within(loading).getByText(
        "We're retrieving your calendar data and bookings from SharePoint. This may take a moment...",
      ),
    ).toBeVisible();
    expect(loading.querySelectorAll('[data-slot="skeleton"]').length).toBeGreaterThanOrEqual(3);
    expect(screen.queryByRole('grid')).toBeNull();

    release();
    await screen.findByRole('grid', { name: 'July 2026' });
    expect(screen.queryByTestId('calendar-loading')).toBeNull();
    // Monday 29 June to Friday 31 July, for both reads
    expect(requests).toEqual(['?from=2026-06-29&to=2026-07-31', '?from=2026-06-29&to=2026-07-31']);
  });

  test('the toolbar names the month; previous, next and Today move it', async () => {
    calendarApi();
    const view = await showCalendar();
    expect(screen.getByRole('heading', { level: 1, name: 'Availability Calendar' })).toBeVisible();
    const label = screen.getByTestId('month-label');
    expect(label).toHaveTextContent('July 2026');
    await view.user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByRole('grid', { name: 'August 2026' })).toBeVisible();
    expect(label).toHaveTextContent('August 2026');
    await view.user.click(screen.getByRole('button', { name: 'Previous month' }));
    await view.user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(await screen.findByRole('grid', { name: 'June 2026' })).toBeVisible();
    await view.user.click(screen.getByRole('button', { name: 'Today' }));
    expect(await screen.findByRole('grid', { name: 'July 2026' })).toBeVisible();
  });

  test('a grid of weekdays: day numbers, statuses with their times, borrowed days inert, today marked', async () => {
    calendarApi({
      days: [
        aDay('2026-07-01', { status: 'available', startTime: '09:00', endTime: '15:00' }),
        aDay('2026-07-03', { status: 'limited', startTime: '09:00', endTime: '15:00' }),
        aDay('2026-07-06', { status: 'unavailable', startTime: '09:00', endTime: '15:00' }),
      ],
    });
    const view = await showCalendar();
    const grid = screen.getByRole('grid', { name: 'July 2026' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      expect.stringMatching(/Monday/),
      expect.stringMatching(/Tuesday/),
      expect.stringMatching(/Wednesday/),
      expect.stringMatching(/Thursday/),
      expect.stringMatching(/Friday/),
    ]);
    // a header row and five weeks, Monday 29 June to Friday 31 July
    expect(within(grid).getAllByRole('row')).toHaveLength(6);
    const dates = [...grid.querySelectorAll('td[data-date]')].map((td) => td.getAttribute('data-date'));
    expect(dates).toEqual(
      monthGrid(TODAY)
        .flat()
        .map((cell) => cell.date),
    );
    expect(dates.slice(0, 3)).toEqual(['2026-06-29', '2026-06-30', '2026-07-01']);
    expect(dates.at(-1)).toBe('2026-07-31');
    expect(dayCell('2026-07-03')).toHaveTextContent(/^3/);

    expect(dayCell('2026-07-01')).toHaveAttribute('data-status', 'available');
    expect(dayCell('2026-07-01')).toHaveAccessibleName(/Available, 9:00 AM – 3:00 PM/);
    expect(dayCell('2026-07-03')).toHaveAttribute('data-status', 'limited');
    expect(dayCell('2026-07-03')).toHaveAccessibleName(
      'Friday, 3 July 2026, Limited Availability, 9:00 AM – 3:00 PM',
    );
    expect(dayCell('2026-07-06')).toHaveAttribute('data-status', 'unavailable');
    expect(dayCell('2026-07-06')).toHaveAccessibleName(/Unavailable, 9:00 AM – 3:00 PM/);
    expect(dayCell('2026-07-07')).toHaveAttribute('data-status', 'none');

    const borrowed = dayCell('2026-06-30');
    expect(borrowed).toHaveAttribute('aria-disabled', 'true');
    expect(borrowed).toHaveAccessibleName('Tuesday, 30 June 2026, outside this month');
    await view.user.click(borrowed);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('status', { name: /Cannot Edit/ })).toBeNull();
    expect(screen.queryByText('Cannot Edit Availability')).toBeNull();

    expect(dayCell(TODAY)).toHaveAttribute('aria-current', 'date');
    expect(dayCell(TODAY)).toHaveClass('border-primary');
    expect(dayCell(TODAY)).toHaveAccessibleName(/^Wednesday, 8 July 2026, today, no availability set$/);
    expect(dayCell('2026-07-07')).not.toHaveAttribute('aria-current');
  });

  test('a day with notes hints at them and a screen reader hears them; its times have a line of their own', async () => {
    calendarApi({
      days: [
        aDay('2026-07-13', {
          status: 'limited',
          startTime: '09:00',
          endTime: '13:00',
          notes: 'School run until 9',
        }),
        aDay('2026-07-14', { status: 'limited', startTime: '09:00', endTime: '13:00' }),
      ],
    });
    await showCalendar();
    const withNotes = dayCell('2026-07-13');
    expect(within(withNotes).getByTestId('notes-hint')).toBeInTheDocument();
    expect(withNotes).toHaveAttribute(
      'aria-label',
      expect.stringMatching(/9:00 AM – 1:00 PM, notes: School run until 9$/),
    );
    expect(within(withNotes).getByTestId('day-times')).toHaveTextContent('9:00 AM – 1:00 PM');
    const plain = dayCell('2026-07-14');
    expect(within(plain).queryByTestId('notes-hint')).toBeNull();
    expect(plain).toHaveAccessibleName(/Limited Availability, 9:00 AM – 1:00 PM$/);
  });

  test('booked days: four chips and "+N more", a lock, and the Cannot Edit toast instead of the dialog', async () => {
    calendarApi({ bookings: allBookings });
    const view = await showCalendar();
    const busy = dayCell(BUSY_DAY);
    expect(
      within(busy)
        .getAllByTestId('booking-chip')
        .map((chip) => chip.textContent),
    ).toEqual(['Art Class 1', 'Art Class 2', 'Art Class 3', 'Art Class 4']);
    expect(within(busy).getByRole('button', { name: /2 more bookings/ })).toHaveTextContent('+2 more');
    expect(busy).toHaveAccessibleName(
      /6 bookings: Art Class 1; Art Class 2; Art Class 3; Art Class 4; Art Class 5; Art Class 6, locked$/,
    );
    expect(within(dayCell(FULL_DAY)).getByTestId('booking-chip')).toHaveTextContent('Dance Workshop');
    expect(within(dayCell(FULL_DAY)).getByTestId('day-lock')).toBeInTheDocument();
    expect(within(dayCell('2026-07-01')).queryByTestId('day-lock')).toBeNull();
    expect(dayCell('2026-07-01')).toHaveAccessibleName(/no availability set$/);

    await view.user.click(dayCell(BARE_DAY));
    expect(await screen.findByText('Cannot Edit Availability')).toBeVisible();
    expect(
      screen.getByText('This date has confirmed bookings and cannot be modified to maintain data integrity.'),
    ).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    // toasts are kept by the module, across tests: this one goes before the next test
    await view.user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Cannot Edit Availability')).toBeNull());
  });

  test('booking details: every field of a booking, the fallbacks of a bare one, all bookings of a busy day', async () => {
    calendarApi({ bookings: allBookings });
    const view = await showCalendar();
    expect(screen.queryByText('Cannot Edit Availability')).toBeNull();
    const field = (dialog: HTMLElement, name: string) =>
      dialog.querySelector(`dd[data-field="${name}"]`)?.textContent;

    await view.user.click(within(dayCell(FULL_DAY)).getByTestId('booking-chip'));
    let dialog = await screen.findByRole('dialog', { name: 'Dance Workshop' });
    expect(field(dialog, 'School')).toBe('Hillside Primary School');
    expect(field(dialog, 'Program')).toBe('Creative Movement');
    expect(field(dialog, 'Time Slot')).toBe('Morning');
    expect(field(dialog, 'Delivery')).toBe('Virtual');
    expect(field(dialog, 'Time')).toBe('9:30 AM – 11:00 AM');
    expect(field(dialog, 'Location')).toBe('12 Hill Road, Leeds, LS1 4AB');
    expect(field(dialog, 'Date')).toBe('Thursday, 2 July 2026');
    // a chip is not the day: no refusal
    expect(screen.queryByText('Cannot Edit Availability')).toBeNull();
    await view.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await view.user.click(within(dayCell(BARE_DAY)).getByTestId('booking-chip'));
    dialog = await screen.findByRole('dialog', { name: 'Drama Session' });
    expect(field(dialog, 'School')).toBe('Unknown School');
    expect(field(dialog, 'Program')).toBe('Unknown Program');
    expect(field(dialog, 'Time Slot')).toBe('All Day');
    expect(field(dialog, 'Delivery')).toBe('Live');
    expect(field(dialog, 'Time')).toBe('All Day');
    expect(field(dialog, 'Location')).toBe('No address given');
    expect(field(dialog, 'Date')).toBe('Thursday, 9 July 2026');
    await view.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await view.user.click(within(dayCell(BUSY_DAY)).getByRole('button', { name: /2 more bookings/ }));
    dialog = await screen.findByRole('dialog', { name: 'Booking Details' });
    expect(dialog).toHaveAccessibleDescription('6 bookings on Thursday, 16 July 2026');
    expect(
      within(dialog)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(busyBookings.map((b) => b.title));
    expect(screen.queryByText('Cannot Edit Availability')).toBeNull();
  });

  test('someone who never marked a day is shown how to start, until they save one', async () => {
    calendarApi();
    const view = await showCalendar({ neverMarked: true });
    const hint = screen.getByTestId('first-steps');
    expect(hint).toHaveTextContent(
      'Getting started: choose a day to say whether you can work it, with times and notes if you like, or use Bulk Update to mark many days at once. Days with bookings are locked.',
    );
    await view.user.click(dayCell('2026-07-01'));
    const dialog = await screen.findByRole('dialog', { name: 'Update Availability' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dayCell('2026-07-01')).toHaveAttribute('data-status', 'available'));
    expect(screen.queryByTestId('first-steps')).toBeNull();
  });

  test('someone who has marked days before is not shown how to start', async () => {
    calendarApi();
    await showCalendar();
    expect(screen.queryByTestId('first-steps')).toBeNull();
  });
});

describe('AvailabilityCalendar: the day dialog', () => {
  onTheFixedDay();

  test('opens on the day as available with no times, offers hourly times or "none", saves what was chosen', async () => {
    const api = calendarApi();
    const view = await showCalendar();
    await view.user.click(dayCell('2026-07-13'));
    const dialog = await screen.findByRole('dialog', { name: 'Update Availability' });
    expect(dialog).toHaveAccessibleDescription('Monday, 13 July 2026');
    expect(within(dialog).getByRole('radio', { name: 'Available' })).toBeChecked();
    await view.user.click(within(dialog).getByRole('radio', { name: 'Limited Availability' }));

    await view.user.click(within(dialog).getByRole('combobox', { name: 'Start Time (optional)' }));
    const hours = ['7:00 AM', '8:00 AM', '9:00 AM', '10:00 AM', '11:00 AM', '12:00 PM'].concat(
      Array.from({ length: 8 }, (_, i) => `${i + 1}:00 PM`),
    );
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'none',
      ...hours,
    ]);
    await view.user.click(screen.getByRole('option', { name: '9:00 AM' }));
    await chooseTime(view, dialog, 'End Time (optional)', '1:00 PM');
    expect(within(dialog).getByRole('combobox', { name: 'End Time (optional)' })).toHaveTextContent(
      '1:00 PM',
    );
    await view.user.type(within(dialog).getByLabelText('Notes (optional)'), 'School run until 9');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Sync Successful')).toBeVisible();
    expect(screen.getByText('Your availability was synced to SharePoint automatically.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.saves).toEqual([
      {
        userId: 7,
        date: '2026-07-13',
        status: 'limited',
        startTime: '09:00',
        endTime: '13:00',
        notes: 'School run until 9',
      },
    ]);
    // the month read again shows the saved day; the save is the only request it sent (an unanswered
    // one, such as a sync of its own, would fail the test)
    await waitFor(() =>
      expect(dayCell('2026-07-13')).toHaveAccessibleName(
        /Limited Availability, 9:00 AM – 1:00 PM, notes: School run until 9$/,
      ),
    );
    expect(api.requests.filter((request) => request.startsWith('POST'))).toEqual(['POST /api/availability']);
  });

  test('reopens a saved day with its values; "none" clears a time', async () => {
    const api = calendarApi({
      days: [
        aDay('2026-07-13', { status: 'limited', startTime: '09:00', endTime: '13:00', notes: 'School run' }),
      ],
    });
    const view = await showCalendar();
    await view.user.click(dayCell('2026-07-13'));
    const dialog = await screen.findByRole('dialog', { name: 'Update Availability' });
    expect(within(dialog).getByRole('radio', { name: 'Limited Availability' })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Start Time (optional)' })).toHaveTextContent(
      '9:00 AM',
    );
    expect(within(dialog).getByRole('combobox', { name: 'End Time (optional)' })).toHaveTextContent(
      '1:00 PM',
    );
    expect(within(dialog).getByLabelText('Notes (optional)')).toHaveValue('School run');
    await chooseTime(view, dialog, 'Start Time (optional)', 'none');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.saves).toHaveLength(1));
    expect(api.saves[0]).toMatchObject({ status: 'limited', startTime: '', endTime: '13:00' });
    await waitFor(() => expect(dayCell('2026-07-13')).toHaveAccessibleName(/Until 1:00 PM/));
  });

  test('notes over 2,000 characters are kept, counted and refused; nothing is sent', async () => {
    const api = calendarApi();
    const view = await showCalendar();
    await view.user.click(dayCell('2026-07-13'));
    const dialog = await screen.findByRole('dialog', { name: 'Update Availability' });
    const notes = within(dialog).getByRole('textbox', { name: 'Notes (optional)' });
    const long = 'Away at a residential course. '.repeat(70).slice(0, 2050);
    // pasted, as people bring long notes
    await view.user.click(notes);
    await view.user.paste(long);
    expect(notes).toHaveValue(long);
    expect(within(dialog).getByTestId('character-count')).toHaveTextContent(
      '2,050 characters: 50 over the limit of 2,000',
    );
    await view.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Notes must be at most 2000 characters')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Update Availability' })).toBeVisible();
    expect(api.saves).toEqual([]);

    await view.user.clear(notes);
    await view.user.click(notes);
    await view.user.paste(long.slice(0, 1990));
    expect(within(dialog).getByTestId('character-count')).toHaveTextContent('1,990 of 2,000 characters');
    expect(within(dialog).queryByText('Notes must be at most 2000 characters')).toBeNull();
  });
});

describe('AvailabilityCalendar: Bulk Update', () => {
  onTheFixedDay();

  const openBulk = async (view: ReturnType<typeof renderWithApp>) => {
    await view.user.click(screen.getByRole('button', { name: 'Bulk Update' }));
    return screen.findByRole('dialog', { name: 'Bulk Update Availability' });
  };
  const weekday = (dialog: HTMLElement, name: string) => within(dialog).getByRole('checkbox', { name });
  const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

  test('opens on today to 30 days on, Monday to Friday, available, with its two warnings', async () => {
    calendarApi();
    const view = await showCalendar();
    const dialog = await openBulk(view);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('2026-07-08');
    expect(within(dialog).getByLabelText('End Date')).toHaveValue('2026-08-07');
    for (const day of WEEKDAYS) expect(weekday(dialog, day)).toBeChecked();
    for (const day of ['Saturday', 'Sunday']) expect(weekday(dialog, day)).not.toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Available' })).toBeChecked();
    expect(
      within(dialog).getByText(
        'CAREFUL: Bulk changes can overwrite other availability data; make sure your date range and days are correct before continuing.',
      ),
    ).toBeVisible();
    expect(
      within(dialog).getByText(
        'Note: Days with confirmed bookings will be automatically skipped to maintain data integrity.',
      ),
    ).toBeVisible();
    // Wednesday 8 July to Friday 7 August: 23 weekdays
    expect(within(dialog).getByTestId('bulk-day-count')).toHaveTextContent('23 days selected.');
  });

  test('sends the range, days and fields chosen, then lists the booked days it skipped; reopening starts again', async () => {
    const api = calendarApi({
      bulkResult: { updated: 20, skippedBookedDates: [FULL_DAY, BARE_DAY, BUSY_DAY] },
    });
    const view = await showCalendar();
    let dialog = await openBulk(view);
    const startDate = within(dialog).getByLabelText('Start Date');
    const endDate = within(dialog).getByLabelText('End Date');
    await view.user.clear(startDate);
    await view.user.type(startDate, '2026-07-01');
    await view.user.clear(endDate);
    await view.user.type(endDate, '2026-07-31');
    await view.user.click(within(dialog).getByRole('radio', { name: 'Unavailable' }));
    await chooseTime(view, dialog, 'Start Time (optional)', '1:00 PM');
    expect(within(dialog).getByTestId('bulk-day-count')).toHaveTextContent('23 days selected.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Apply Bulk Update' }));

    const result = await within(dialog).findByTestId('bulk-result');
    expect(api.bulks).toEqual([
      {
        userId: 7,
        startDate: '2026-07-01',
        endDate: '2026-07-31',
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'unavailable',
        startTime: '13:00',
        endTime: '',
        notes: '',
      },
    ]);
    expect(result).toHaveTextContent('Updated 20 days.');
    expect(result).toHaveTextContent('Skipped 3 days with confirmed bookings:');
    expect(
      within(result)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Thursday, 2 July 2026', 'Thursday, 9 July 2026', 'Thursday, 16 July 2026']);
    await view.user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    dialog = await openBulk(view);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('2026-07-08');
    expect(within(dialog).getByLabelText('End Date')).toHaveValue('2026-08-07');
    expect(within(dialog).getByRole('radio', { name: 'Available' })).toBeChecked();
  });

  test('no weekday, or a range over 800 days, is refused before sending', async () => {
    const api = calendarApi();
    const view = await showCalendar();
    const dialog = await openBulk(view);
    for (const day of WEEKDAYS) await view.user.click(weekday(dialog, day));
    expect(within(dialog).getByTestId('bulk-day-count')).toHaveTextContent('0 days selected.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Apply Bulk Update' }));
    expect(await within(dialog).findByText('Choose at least one day of the week')).toBeVisible();

    await view.user.click(weekday(dialog, 'Monday'));
    const endDate = within(dialog).getByLabelText('End Date');
    await view.user.clear(endDate);
    // 801 days after Wednesday 8 July 2026
    await view.user.type(endDate, '2028-09-16');
    expect(within(dialog).getByTestId('bulk-day-count')).toHaveTextContent(
      'The range is longer than 800 days: choose a shorter one.',
    );
    await view.user.click(within(dialog).getByRole('button', { name: 'Apply Bulk Update' }));
    expect(
      await within(dialog).findByText(
        'A bulk update can cover at most 800 days (about two years): choose a later start or an earlier end',
      ),
    ).toBeVisible();
    expect(api.bulks).toEqual([]);
  });
});
