import type { QueryClient } from '@tanstack/react-query';

/**
 * Query keys that more than one feature reads or refreshes. A feature's own keys live in its `api/`
 * files, as a factory named `<feature>Keys`; these are here so no feature names another's cache.
 * Keys name what is cached, never the address it is read from. Each factory's `all` is the prefix
 * that refreshes every entry of that kind.
 */
export const queryKeys = {
  /** The signed-in person (null when signed out): the guards, the layouts and the login pages read it. */
  session: {
    all: ['session'] as const,
  },
  /** Whether Microsoft sign-in is offered (the login pages, the users page; settings change it). */
  microsoftSignInStatus: {
    all: ['microsoft-sign-in-status'] as const,
  },
  /** The signed-in person's own availability (the calendar reads it; patterns change it). */
  myAvailability: {
    all: ['my-availability'] as const,
    range: (userId: number, from: string, to: string) => ['my-availability', userId, from, to] as const,
  },
  /**
   * Every account (user management changes them; the staff grid's filter and who is free read the
   * whole list), and the users screen's pages, which a safeguarding change refreshes (they are
   * filtered by safeguarding state).
   */
  staffUsers: {
    all: ['staff-users'] as const,
    pages: ['staff-users', 'pages'] as const,
  },
  /**
   * Every facilitator's safeguarding status today (the users screen shows it; the safeguarding
   * feature's edits, and accounts added, changed or erased, refresh it).
   */
  safeguardingList: {
    all: ['safeguarding-list'] as const,
  },
  /**
   * The staff grid's pages (the grid reads them; its day edits, notes and account changes refresh them).
   */
  staffGrid: {
    all: ['staff-grid'] as const,
  },
  /**
   * The sessions without a facilitator, with their offers (the offers feature reads them; a bookings
   * refresh from the staff dashboard changes them, as the open sessions' own refresh does).
   */
  openSessions: {
    all: ['open-sessions'] as const,
  },
  /**
   * The completeness report's pages (the completeness feature reads them; reminders sent change them:
   * each row says when its facilitator was last reminded).
   */
  completeness: {
    all: ['staff-completeness'] as const,
  },
  /**
   * The background-work status (the dashboard's status line polls it; the settings page shows its
   * SharePoint problems).
   */
  schedulerStatus: {
    all: ['scheduler-status'] as const,
  },
} as const;

/**
 * What a bookings refresh from SharePoint changes, whichever page asked for it (the dashboard's
 * Refresh Bookings, the open sessions' Refresh from SharePoint: one endpoint): the staff grid, the
 * open sessions, and the SharePoint problem the status line shows. Every one is read again after it.
 */
export function readAgainAfterBookingsRefresh(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [queryKeys.staffGrid.all, queryKeys.openSessions.all, queryKeys.schedulerStatus.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
