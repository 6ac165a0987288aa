import { z } from 'zod';

/** A SharePoint operation that keeps failing, with what staff can do about it. */
export const sharePointProblem = z.object({
  /** `bookings`: the refresh from the Bookings list; `availability`: writing days to the Availability list */
  area: z.enum(['bookings', 'availability']),
  /** what failed, e.g. "Bookings refresh failed: HTTP 403 accessDenied" */
  message: z.string(),
  /** what to do about it, e.g. 'Index the column "Title" of the Availability list "Availability"…' */
  action: z.string(),
  /** when it first failed, as people read it ("Today at 10:02 AM") */
  since: z.string(),
  /** availability only: days waiting to be written to SharePoint; null for bookings */
  waitingDays: z.number().int().nullable(),
});
export type SharePointProblem = z.infer<typeof sharePointProblem>;

export const schedulerStatus = z.object({
  isUpdating: z.boolean(),
  isOfficeHours: z.boolean(),
  nextUpdate: z.string(),
  /**
   * Where a running booking refresh is: waiting for SharePoint's changed bookings (`connecting`), or
   * working through them (`processing`: schools looked up, rows stored). Null when none runs. A
   * refresh running on another instance reports `connecting` until it ends.
   */
  refreshStage: z.enum(['connecting', 'processing']).nullable(),
  /** Why the last refresh failed, while the last one failed; null after a success. */
  lastRefreshError: z.string().nullable(),
  /**
   * How changes to the Bookings list arrive: `notifications` (SharePoint tells the portal, a refresh
   * follows within seconds; polling continues underneath) or `polling` only.
   */
  changeMode: z.enum(['notifications', 'polling']),
  /** false: no SharePoint settings yet (a fresh install), so no bookings come in at all */
  sharePointConfigured: z.boolean(),
  /** SharePoint work that is failing now (empty when everything goes through) */
  sharePointProblems: z.array(sharePointProblem),
});
export type SchedulerStatus = z.infer<typeof schedulerStatus>;
