import { Link } from 'wouter';
import { SharePointProblems } from '@/components/sharepoint-problems';
import { cn } from '@/lib/utils';
import { useSchedulerStatus } from '../api/staff-grid-api';

/**
 * "Updating booking cache..." / "Background updates active" / "Outside office hours", the next update,
 * and below it any SharePoint work that keeps failing with what to do.
 */
export function SchedulerStatusLine() {
  const { data } = useSchedulerStatus();
  // the line's height held while it loads, so the schedule below does not move when it arrives
  if (!data) return <div aria-hidden className="h-5" data-testid="scheduler-status-pending" />;
  const [dot, text] = data.isUpdating
    ? ['bg-blue-500 animate-pulse', 'Updating booking cache...']
    : data.isOfficeHours
      ? ['bg-success', 'Background updates active']
      : ['bg-muted-foreground', 'Outside office hours'];
  return (
    <div className="grid gap-2">
      <div
        className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm"
        data-testid="scheduler-status"
        data-state={data.isUpdating ? 'updating' : data.isOfficeHours ? 'active' : 'outside'}
      >
        <span className="flex items-center gap-2">
          <span
            aria-hidden
            className={cn('inline-block size-2.5 rounded-full', dot)}
            data-testid="scheduler-dot"
          />
          <span>{text}</span>
        </span>
        <span>Next update: {data.nextUpdate}</span>
        {data.sharePointConfigured ? (
          <span data-testid="change-mode" data-mode={data.changeMode}>
            {data.changeMode === 'notifications'
              ? 'Changes in SharePoint arrive within seconds'
              : 'Changes in SharePoint are checked on a schedule'}
          </span>
        ) : (
          // a fresh install reads nothing from SharePoint until it is set up
          <span data-testid="change-mode" data-mode="not-configured" className="text-foreground">
            SharePoint is not set up yet, so no bookings come in:{' '}
            <Link href="/settings" className="font-medium text-primary underline underline-offset-4">
              set it up in Settings
            </Link>
          </span>
        )}
      </div>
      <SharePointProblems problems={data.sharePointProblems} />
    </div>
  );
}
