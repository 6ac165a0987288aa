import { z } from 'zod';

export const schedulerStatus = z.object({
  isUpdating: z.boolean(),
  isOfficeHours: z.boolean(),
  nextUpdate: z.string(),
});
export type SchedulerStatus = z.infer<typeof schedulerStatus>;
