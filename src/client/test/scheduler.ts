import type { SchedulerStatus } from '@shared/schemas/scheduler';

/**
 * `GET /api/admin/scheduler/status` with nothing going on: SharePoint configured and polled, no
 * refresh running, nothing failing, unless given. A test names only what it is about.
 */
export function aSchedulerStatus(values: Partial<SchedulerStatus> = {}): SchedulerStatus {
  return {
    isUpdating: false,
    isOfficeHours: true,
    nextUpdate: '2026-03-04T11:00:00Z',
    refreshStage: null,
    lastRefreshError: null,
    changeMode: 'polling',
    sharePointConfigured: true,
    sharePointProblems: [],
    ...values,
  };
}
