import { z } from 'zod';

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
});
export type SchedulerStatus = z.infer<typeof schedulerStatus>;
