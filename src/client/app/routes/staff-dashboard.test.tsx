import type { RefreshResult } from '@shared/schemas/bookings';
import type { ErrorResponse } from '@shared/schemas/error-response';
import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { StaffGridPage, StaffGridRow } from '@shared/schemas/staff-grid';
import type { PublicUser } from '@shared/schemas/users';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { Link, Route, Switch } from 'wouter';
import { queryKeys } from '@/lib/query-keys';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { aSchedulerStatus } from '@/test/scheduler';
import { server } from '@/test/server';
import StaffDashboardRoute from './staff-dashboard';

const person = (id: number, name: string, email: string) =>
  anAccount({ id, username: email, displayName: name, email, area: 'North' });
const staff: PublicUser = { ...person(1, 'Sam Staff', 'staff@example.org'), role: 'staff', area: null };
const people = [
  person(2, 'Ann Artist', 'ann@example.org'),
  person(3, 'Ben Baker', 'ben@example.org'),
  person(4, 'Fran Potter', 'fran@example.org'),
];
const row = (user: PublicUser): StaffGridRow => ({
  user,
  availability: [],
  bookings: [],
  notes: [],
  safeguarding: { state: 'missing', reasons: [] },
});

/** The grid's one and only page: everyone above, in the given areas. */
const gridPage = (areas = ['North']): StaffGridPage => ({
  rows: people.map(row),
  nextCursor: null,
  matching: people.length,
  total: people.length,
  areas,
});
const status: SchedulerStatus = aSchedulerStatus();

/**
 * The dashboard's reads. The grid answers as the server does: the facilitators whose name or email
 * holds `search`. Returns the `search` of every grid page asked for ('' when none was sent).
 */
function dashboardApi() {
  const searches: string[] = [];
  server.use(
    http.get('/api/staff/grid', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      searches.push(search);
      const found = people.filter((p) =>
        `${p.displayName} ${p.email}`.toLowerCase().includes(search.toLowerCase()),
      );
      const page: StaffGridPage = {
        rows: found.map(row),
        nextCursor: null,
        matching: found.length,
        total: people.length,
        areas: ['North'],
      };
      return HttpResponse.json(page);
    }),
    http.get('/api/staff/notes', () => HttpResponse.json([])),
    http.get('/api/admin/scheduler/status', () => HttpResponse.json(status)),
  );
  return searches;
}

/** The grid's count line (jsdom lays nothing out, so the windowed rows are not drawn: the journeys see them). */
const counted = (text: string) =>
  waitFor(() => expect(screen.getByTestId('grid-count')).toHaveTextContent(text));

describe('the staff dashboard: the name search', () => {
  test('asks the server for what is typed once typing pauses, and says how many it found', async () => {
    const searches = dashboardApi();
    const { user } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    expect(await screen.findByText('Showing 3 of 3 facilitators')).toBeVisible();

    const box = screen.getByRole('searchbox', { name: 'Search by name or email' });
    await user.type(box, 'POT');
    await counted('Showing 1 of 3 facilitators');
    // the count is a status: a screen reader hears it
    expect(screen.getByTestId('grid-count')).toHaveAttribute('role', 'status');
    // the grid was read once with nothing searched and last with the whole word, not letter by letter
    expect(searches[0]).toBe('');
    expect(searches.at(-1)).toBe('POT');
    expect(searches.filter((s) => s !== '' && s !== 'POT').length).toBeLessThan(2);

    // an email matches too; a search that finds nobody says so
    await user.clear(box);
    await user.type(box, 'ben@');
    await waitFor(() => expect(searches.at(-1)).toBe('ben@'));
    await counted('Showing 1 of 3 facilitators');
    await user.clear(box);
    await user.type(box, 'nobody');
    expect(
      await screen.findByText('No facilitators match the search and the selected filters.'),
    ).toBeVisible();

    // Escape empties the box: everyone is back
    await user.type(box, '{Escape}');
    expect(box).toHaveValue('');
    // (the first page read with nothing searched is still in the cache)
    await counted('Showing 3 of 3 facilitators');
  });

  test('a download while searching says the search is not applied', async () => {
    dashboardApi();
    const { user } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or email' }), 'ann');
    await counted('Showing 1 of 3 facilitators');
    await user.click(screen.getByTestId('staff-export'));
    const scope = await screen.findByTestId('staff-export-scope');
    expect(within(scope).getByText(/the search is not applied/)).toBeVisible();
  });
});

describe('the staff dashboard: the facilitator filter', () => {
  test('All and None wait for the list of facilitators; None then leaves every one of them out', async () => {
    dashboardApi();
    const excluded: string[] = [];
    let release = () => {};
    const listed = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/staff/grid', ({ request }) => {
        excluded.push(new URL(request.url).searchParams.get('exclude') ?? '');
        return HttpResponse.json(gridPage());
      }),
      http.get('/api/staff/users', async () => {
        await listed;
        return HttpResponse.json([staff, ...people]);
      }),
    );
    const { user } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');
    await user.click(screen.getByTestId('facilitator-filter'));
    const chooser = await screen.findByRole('dialog', { name: 'Choose facilitators' });
    expect(within(chooser).getByRole('status')).toHaveTextContent('Loading facilitators...');
    // pressed now, None would leave out nobody: it waits for the list
    expect(within(chooser).getByRole('button', { name: 'None' })).toBeDisabled();
    expect(within(chooser).getByRole('button', { name: 'All' })).toBeDisabled();

    release();
    const none = within(chooser).getByRole('button', { name: 'None' });
    await waitFor(() => expect(none).toBeEnabled());
    await user.click(none);
    expect(screen.getByTestId('facilitator-filter')).toHaveTextContent('Facilitators: None');
    await waitFor(() => expect(excluded.at(-1)).toBe('2,3,4'));
  });
});

describe('the staff dashboard: the area filter', () => {
  test('an area that appears while every area is shown is shown too', async () => {
    dashboardApi();
    let areas = ['North'];
    const asked: string[][] = [];
    server.use(
      http.get('/api/staff/grid', ({ request }) => {
        asked.push(new URL(request.url).searchParams.getAll('area'));
        return HttpResponse.json(gridPage(areas));
      }),
    );
    const { user, queryClient } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');

    // someone is given a new area, and the grid is read again (as after a refresh or a save)
    areas = ['North', 'South'];
    await queryClient.invalidateQueries();
    await waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(2));
    await user.click(screen.getByTestId('area-filter'));
    const dialog = await screen.findByRole('dialog', { name: 'Choose areas' });
    expect(within(dialog).getByRole('checkbox', { name: 'South' })).toBeChecked();
    // every area is still every area: the grid is never asked for some areas only
    expect(asked.every((list) => list.length === 0)).toBe(true);
  });
});

/** A promise and the function that settles it: holds a request's answer until the test lets it go. */
function held() {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('the staff dashboard: loading and the header', () => {
  test('says it is loading until the first page of the grid arrives, then shows the schedule', async () => {
    dashboardApi();
    const grid = held();
    server.use(
      http.get('/api/staff/grid', async () => {
        await grid.promise;
        return HttpResponse.json(gridPage());
      }),
    );
    renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    expect(await screen.findByText('Loading staff dashboard...')).toBeVisible();
    expect(screen.queryByTestId('schedule-grid')).toBeNull();

    grid.release();
    expect(await screen.findByTestId('schedule-grid')).toHaveAttribute('data-view', 'month');
    expect(screen.queryByText('Loading staff dashboard...')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Staff Dashboard - Arts Facilitator Portal',
    );
    expect(screen.getByRole('heading', { name: 'Facilitator Schedule Overview' })).toBeVisible();
    expect(
      screen.getByText('View and manage all facilitator availability and bookings in one place.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Manage Users' })).toHaveAttribute('href', '/staff/users');
    expect(screen.getByRole('button', { name: 'Refresh Bookings' })).toBeEnabled();
  });

  test('Refresh Bookings waits while the grid reads another range', async () => {
    dashboardApi();
    const nextMonth = held();
    let reads = 0;
    server.use(
      http.get('/api/staff/grid', async () => {
        reads += 1;
        // the first range passes; the next one is held
        if (reads > 1) await nextMonth.promise;
        return HttpResponse.json(gridPage());
      }),
    );
    const { user } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');
    const refresh = screen.getByRole('button', { name: 'Refresh Bookings' });
    expect(refresh).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    await waitFor(() => expect(refresh).toBeDisabled());
    expect(reads).toBe(2);
    nextMonth.release();
    await waitFor(() => expect(refresh).toBeEnabled());
  });
});

describe('the staff dashboard: a read that fails', () => {
  test('says so in place of the rows with Try again; the filters stay as chosen', async () => {
    dashboardApi();
    let firstFrom: string | null = null;
    let failures = 0;
    server.use(
      http.get('/api/staff/grid', ({ request }) => {
        const url = new URL(request.url);
        firstFrom ??= url.searchParams.get('from');
        // the next month cannot be read the first time it is asked for
        if (url.searchParams.get('from') !== firstFrom && failures === 0) {
          failures += 1;
          return HttpResponse.json({ message: 'The database is busy.' } satisfies ErrorResponse, {
            status: 503,
          });
        }
        const search = url.searchParams.get('search') ?? '';
        const found = people.filter((p) => p.displayName!.toLowerCase().includes(search.toLowerCase()));
        return HttpResponse.json({ ...gridPage(), rows: found.map(row), matching: found.length });
      }),
    );
    const { user } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');
    const box = screen.getByRole('searchbox', { name: 'Search by name or email' });
    await user.type(box, 'ann');
    await counted('Showing 1 of 3 facilitators');

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard could not be loaded: The database is busy.');
    // the controls and what they hold stay
    expect(screen.getByRole('searchbox', { name: 'Search by name or email' })).toHaveValue('ann');
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeVisible();

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await counted('Showing 1 of 3 facilitators');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search by name or email' })).toHaveValue('ann');
  });
});

describe('the staff dashboard: Refresh Bookings outlives the page', () => {
  const refused: ErrorResponse = { message: 'SharePoint refused the app: its secret has expired.' };

  test('back on the dashboard it shows the refresh running; its failure is told on the page then open', async () => {
    dashboardApi();
    const answer = held();
    server.use(
      http.post('/api/staff/bookings/refresh', async () => {
        await answer.promise;
        return HttpResponse.json(refused, { status: 502 });
      }),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { user } = renderWithApp(<DashboardAndAnotherPage />, { path: '/staff', user: staff });
      await screen.findByText('Showing 3 of 3 facilitators');
      await user.click(screen.getByRole('button', { name: 'Refresh Bookings' }));
      expect(await screen.findByTestId('refresh-message')).toHaveTextContent('Connecting to SharePoint...');

      // away and back while SharePoint has not answered: still running
      await user.click(screen.getByRole('link', { name: 'Manage Users' }));
      await user.click(await screen.findByRole('link', { name: 'Back to Dashboard' }));
      expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled();
      expect(screen.getByTestId('refresh-message')).toHaveTextContent('Connecting to SharePoint...');

      // away again; the refresh fails meanwhile, and the page open says why
      await user.click(screen.getByRole('link', { name: 'Manage Users' }));
      await screen.findByRole('link', { name: 'Back to Dashboard' });
      answer.release();
      expect(await screen.findByTestId('refresh-error-reason')).toHaveTextContent(refused.message);
      expect(screen.getByRole('link', { name: 'Check the SharePoint settings' })).toBeVisible();

      await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
      expect(await screen.findByRole('button', { name: 'Refresh Bookings' })).toBeEnabled();
      expect(screen.queryByTestId('refresh-message')).toBeNull();
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the staff dashboard: a refresh that succeeds', () => {
  test('reads the grid again, and the open sessions too (they come from the same bookings)', async () => {
    dashboardApi();
    let reads = 0;
    server.use(
      http.get('/api/staff/grid', () => {
        reads += 1;
        return HttpResponse.json(gridPage());
      }),
      http.post('/api/staff/bookings/refresh', () =>
        HttpResponse.json({ added: 1, updated: 0, removed: 0, total: 1 } satisfies RefreshResult),
      ),
    );
    const { user, queryClient } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
    await screen.findByText('Showing 3 of 3 facilitators');
    // the open sessions as read on their page earlier
    queryClient.setQueryData(queryKeys.openSessions.all, {
      sessions: [],
      pending: [],
      sharePointConfigured: true,
    });

    await user.click(screen.getByRole('button', { name: 'Refresh Bookings' }));
    expect(await screen.findByText('Complete!')).toBeVisible();
    expect(reads).toBe(2);
    await waitFor(() =>
      expect(queryClient.getQueryState(queryKeys.openSessions.all)?.isInvalidated).toBe(true),
    );
  });
});

describe('the staff dashboard: Logout', () => {
  test('a refused logout is only logged and the page stays', async () => {
    dashboardApi();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let posts = 0;
    server.use(
      http.post('/api/logout', () => {
        posts += 1;
        return new HttpResponse('boom', { status: 500 });
      }),
    );
    try {
      const { user, history } = renderWithApp(<StaffDashboardRoute />, { path: '/staff', user: staff });
      await screen.findByText('Showing 3 of 3 facilitators');

      await user.click(screen.getByRole('button', { name: 'Logout' }));
      await waitFor(() =>
        expect(logged.mock.calls.some(([message]) => String(message).includes('Logout failed'))).toBe(true),
      );
      expect(posts).toBe(1);
      expect(history.at(-1)).toBe('/staff');
      // no toast: the failure is only logged
      expect(document.querySelector('[data-slot="toast"]')).toBeNull();
      // (an accepted one opens the staff login as a new page, which jsdom cannot do: the browser
      // tests sign out from the dashboard, microsoft-sign-in.spec.ts and users.spec.ts)
    } finally {
      logged.mockRestore();
    }
  });
});

/** The dashboard, and another staff page to go to and come back from. */
function DashboardAndAnotherPage() {
  return (
    <Switch>
      <Route path="/staff" component={StaffDashboardRoute} />
      <Route path="/staff/users">
        <Link href="/staff">Back to Dashboard</Link>
      </Route>
    </Switch>
  );
}
