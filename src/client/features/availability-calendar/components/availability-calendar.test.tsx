import { monthGrid, nextMonth, startOfMonth } from '@shared/calendar';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
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
