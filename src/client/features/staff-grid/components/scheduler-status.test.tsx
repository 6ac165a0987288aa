import type { SchedulerStatus } from '@shared/schemas/scheduler';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SchedulerStatusLine } from './scheduler-status';

/** The whole answer, as the server sends it. */
const rest: SchedulerStatus = {
  isUpdating: false,
  isOfficeHours: true,
  nextUpdate: 'Today at 10:30',
  refreshStage: null,
  lastRefreshError: null,
  changeMode: 'polling',
  sharePointConfigured: true,
  sharePointProblems: [],
};
const updating: SchedulerStatus = {
  ...rest,
  isUpdating: true,
  nextUpdate: 'Today at 10:15',
  refreshStage: 'connecting',
};
const active: SchedulerStatus = rest;
const outside: SchedulerStatus = { ...rest, isOfficeHours: false, nextUpdate: 'Monday 9 March at 08:00' };

afterEach(() => {
  vi.useRealTimers();
});

describe('SchedulerStatusLine (the staff dashboard header)', () => {
  test('shows the three states, each with its own dot, and the next update, read again every 30 s', async () => {
    // only the polling's interval is under the test's control; requests keep real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let current = updating;
    let reads = 0;
    server.use(
      http.get('/api/admin/scheduler/status', () => {
        reads += 1;
        return HttpResponse.json(current);
      }),
    );
    renderWithApp(<SchedulerStatusLine />);
    const line = () => screen.getByTestId('scheduler-status');
    const dot = () => screen.getByTestId('scheduler-dot').className;
    expect(await screen.findByText('Updating booking cache...')).toBeVisible();
    expect(line()).toHaveTextContent('Next update: Today at 10:15');
    const updatingDot = dot();

    // the server's answer changes, but the line only shows it at the next read, 30 s on
    current = active;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reads).toBe(1);
    expect(line()).toHaveTextContent('Updating booking cache...');
    await vi.advanceTimersByTimeAsync(10_000);
    // (waitFor checks again on every change to the page, without its faked interval)
    await waitFor(() => expect(line()).toHaveTextContent('Background updates active'));
    expect(line()).toHaveTextContent('Next update: Today at 10:30');
    expect(reads).toBe(2);
    const activeDot = dot();

    current = outside;
    await vi.advanceTimersByTimeAsync(30_000);
    await waitFor(() => expect(line()).toHaveTextContent('Outside office hours'));
    expect(line()).toHaveTextContent('Next update: Monday 9 March at 08:00');
    expect(reads).toBe(3);
    expect(new Set([updatingDot, activeDot, dot()]).size).toBe(3);
  });
});
