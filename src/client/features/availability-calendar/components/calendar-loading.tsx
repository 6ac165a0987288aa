import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';

/** The loading state: spinner, the two sentences and skeleton bars. */
export function CalendarLoading() {
  return (
    <div className="grid gap-6" data-testid="calendar-loading">
      <div className="flex flex-col items-center gap-3 rounded-lg border bg-card px-4 py-8 text-center">
        <Spinner size="lg" label="Loading your calendar" />
        <p className="font-medium">Please be patient while we load your profile</p>
        <p className="max-w-md text-muted-foreground text-sm">
          We're retrieving your calendar data and bookings from SharePoint. This may take a moment...
        </p>
      </div>
      <div className="grid gap-3" aria-hidden>
        <Skeleton className="h-9 w-1/2" />
        <Skeleton className="h-6 w-full" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </div>
  );
}
