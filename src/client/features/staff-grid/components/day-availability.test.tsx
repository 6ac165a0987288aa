import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { DayAvailability } from './day-availability';

const DATE = '2026-03-10';
const saved: Availability = {
  id: 5,
  userId: 7,
  date: DATE,
  status: 'available',
  startTime: '10:00',
  endTime: '14:00',
  notes: '',
  syncedToSharePoint: true,
};
const booking: Booking = {
  id: 1,
  userId: 7,
  title: 'Workshop',
  date: DATE,
  startTime: '10:00',
  endTime: '12:00',
  location: null,
  sharePointId: '1',
  schoolId: null,
  schoolName: 'Riverside Primary',
  schoolAddress: null,
  schoolPostcode: null,
  program: null,
  timeSlot: null,
  deliveryType: null,
  year: null,
};

/** The staff save endpoint: records each body it is sent and answers as `answer` says. */
function saveEndpoint(answer: () => Response = () => HttpResponse.json(saved)) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/staff/availability', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

describe('DayAvailability (the staff day edit)', () => {
  test('a new day opens at 09:00 to 17:00; marked unavailable it has no times, and saves so', async () => {
    const bodies = saveEndpoint();
    const { user } = renderWithApp(<DayAvailability userId={7} date={DATE} availability={undefined} />);
    expect(screen.getByText('No availability set')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('combobox', { name: 'Start Time (optional)' })).toHaveTextContent('9:00 AM');
    expect(screen.getByRole('combobox', { name: 'End Time (optional)' })).toHaveTextContent('5:00 PM');
    expect(screen.getByRole('radio', { name: 'Available' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Unavailable' }));
    expect(screen.getByRole('combobox', { name: 'Start Time (optional)' })).toHaveTextContent('none');
    await user.click(screen.getByRole('radio', { name: 'Limited Availability' }));
    expect(screen.getByRole('combobox', { name: 'Start Time (optional)' })).toHaveTextContent('9:00 AM');
    await user.click(screen.getByRole('radio', { name: 'Unavailable' }));
    await user.type(screen.getByRole('textbox', { name: 'Notes (optional)' }), 'Set by staff');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Availability updated')).toBeVisible();
    expect(bodies).toEqual([
      { userId: 7, date: DATE, status: 'unavailable', startTime: '', endTime: '', notes: 'Set by staff' },
    ]);
  });

  test('marking a booked day unavailable asks first; keeping it sends nothing', async () => {
    const bodies = saveEndpoint();
    const { user } = renderWithApp(
      <DayAvailability userId={7} date={DATE} availability={saved} bookings={[booking]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('radio', { name: 'Unavailable' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Mark a booked day unavailable?' });
    expect(confirm).toHaveTextContent('Riverside Primary, 10:00 AM – 12:00 PM');
    await user.click(within(confirm).getByRole('button', { name: 'Keep as it was' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bodies).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('alertdialog', { name: 'Mark a booked day unavailable?' });
    await user.click(within(again).getByRole('button', { name: 'Mark unavailable' }));
    expect(await screen.findByText('Availability updated')).toBeVisible();
    expect(bodies).toMatchObject([{ status: 'unavailable', startTime: '10:00', endTime: '14:00' }]);
  });

  test("a refused save keeps the form and shows the server's message", async () => {
    saveEndpoint(() => HttpResponse.json({ message: 'The database is resting' }, { status: 500 }));
    const { user } = renderWithApp(<DayAvailability userId={7} date={DATE} availability={saved} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update availability')).toBeVisible();
    expect(screen.getByText('The database is resting')).toBeVisible();
    expect(screen.getByRole('form', { name: 'Edit availability' })).toBeVisible();
  });

  test('a saved day shows its status, times and notes; Edit then Cancel goes back to them, sending nothing', async () => {
    const bodies = saveEndpoint();
    const limited: Availability = { ...saved, status: 'limited', notes: 'Mornings only' };
    const { user } = renderWithApp(<DayAvailability userId={7} date={DATE} availability={limited} />);
    const view = screen.getByTestId('availability-view');
    expect(view).toHaveTextContent('Limited Availability');
    expect(view).toHaveTextContent('10:00 AM – 2:00 PM');
    expect(view).toHaveTextContent('Mornings only');

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('form', { name: 'Edit availability' })).toBeVisible();
    expect(screen.queryByTestId('availability-view')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit availability' })).toBeNull();
    expect(screen.getByTestId('availability-view')).toHaveTextContent('Limited Availability');
    expect(bodies).toEqual([]);
  });

  test('an unavailable day without times says so; times staff choose for it are kept', async () => {
    const bodies = saveEndpoint();
    const unavailable: Availability = { ...saved, status: 'unavailable', startTime: '', endTime: '' };
    const { user } = renderWithApp(<DayAvailability userId={7} date={DATE} availability={unavailable} />);
    expect(screen.getByTestId('availability-view')).toHaveTextContent('Unavailable');
    expect(screen.getByTestId('availability-view')).toHaveTextContent('No times set');

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const start = screen.getByRole('combobox', { name: 'Start Time (optional)' });
    expect(start).toHaveTextContent('none');
    await user.click(start);
    await user.click(await screen.findByRole('option', { name: '1:00 PM' }));
    await user.click(screen.getByRole('combobox', { name: 'End Time (optional)' }));
    await user.click(await screen.findByRole('option', { name: '5:00 PM' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Availability updated')).toBeVisible();
    expect(bodies).toMatchObject([{ status: 'unavailable', startTime: '13:00', endTime: '17:00' }]);
  });
});
