import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import {
  schedulerStatusQuery,
  useBookingRefreshRunning,
  useRefreshBookings,
  useRefreshStatus,
} from '../api/staff-grid-api';

export const REFRESH_MESSAGES = {
  connecting: 'Connecting to SharePoint...',
  processing: 'Processing booking data...',
  complete: 'Complete!',
  error: 'Error occurred during refresh',
} as const;

/** The progress bar: 25 % connecting, 75 % processing, 100 % complete, anything else 50 %. */
export function progressFor(message: string): number {
  if (message === REFRESH_MESSAGES.connecting) return 25;
  if (message === REFRESH_MESSAGES.processing) return 75;
  if (message === REFRESH_MESSAGES.complete) return 100;
  return 50;
}

const COMPLETE_CLEARS_MS = 1000;
const ERROR_CLEARS_MS = 2000;
const NO_REASON = 'SharePoint did not answer. Please try again.';

/** Where the page's own refresh is: the first two follow the server's stage, the last two its answer. */
type RefreshPhase = 'connecting' | 'processing' | 'complete' | 'error';

const PHASE_MESSAGE: Record<RefreshPhase, string> = REFRESH_MESSAGES;

/**
 * Refresh Bookings on the dashboard. The bar shows "Connecting" until the server reports that
 * SharePoint has sent the changes (its status, read every REFRESH_STAGE_POLL_MS meanwhile), then
 * "Processing", and "Complete!" or the error once the server answers: never a stage the server is not
 * in. A refresh outlives the page: back on the dashboard while it runs, the bar and the button show it
 * running, and a failure is told in a toast on whichever page is open.
 */
export function useBookingRefresh() {
  const queryClient = useQueryClient();
  const running = useBookingRefreshRunning();
  const status = useRefreshStatus(running);
  const [phase, setPhase] = useState<RefreshPhase | null>(null);
  // a status read before the refresh was asked for says nothing about it
  const [askedAt, setAskedAt] = useState(0);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const clearTimers = useCallback(() => {
    for (const timer of timers.current) clearTimeout(timer);
    timers.current = [];
  }, []);
  useEffect(() => clearTimers, [clearTimers]);

  const serverStage = status.dataUpdatedAt >= askedAt ? status.data?.refreshStage : undefined;
  useEffect(() => {
    if (serverStage === 'processing')
      setPhase((current) => (current === 'connecting' ? 'processing' : current));
  }, [serverStage]);

  const later = (ms: number, fn: () => void) => {
    timers.current.push(setTimeout(fn, ms));
  };

  // (setting the phase of a page that has closed does nothing)
  const mutation = useRefreshBookings({
    onSuccess: () => {
      setPhase('complete');
      later(COMPLETE_CLEARS_MS, () => setPhase(null));
    },
    onError: (error) => {
      // the newest status read, for the reason of a failure the refresh's own answer does not carry
      const latest = queryClient.getQueryData(schedulerStatusQuery().queryKey);
      const reason = errorMessage(error, latest?.lastRefreshError ?? NO_REASON);
      console.error('Booking refresh failed:', reason);
      setPhase('error');
      // the error line clears after 2 s; the reason stays in a toast, with the way to fix it
      toast({
        variant: 'destructive',
        title: REFRESH_MESSAGES.error,
        // stays until closed: it holds what to do next, which five seconds may not be enough to read
        duration: Number.POSITIVE_INFINITY,
        description: (
          <span className="grid gap-1">
            <span data-testid="refresh-error-reason">{reason}</span>
            <Link href="/settings" className="font-medium underline underline-offset-4">
              Check the SharePoint settings
            </Link>
          </span>
        ),
      });
      later(ERROR_CLEARS_MS, () => setPhase(null));
    },
  });

  const start = () => {
    clearTimers();
    setAskedAt(Date.now());
    setPhase('connecting');
    mutation.mutate();
  };

  // a page opened while a refresh asked for elsewhere runs shows it running, at the server's stage
  const shown = phase ?? (running ? (serverStage === 'processing' ? 'processing' : 'connecting') : null);
  return { start, message: shown ? PHASE_MESSAGE[shown] : null, isRefreshing: running };
}

export function RefreshBookingsButton({
  onClick,
  isRefreshing,
  bookingsLoading,
}: {
  onClick: () => void;
  isRefreshing: boolean;
  bookingsLoading: boolean;
}) {
  return (
    <Button variant="outline" onClick={onClick} disabled={isRefreshing || bookingsLoading}>
      <RefreshCw aria-hidden className={isRefreshing ? 'animate-spin' : undefined} />
      {isRefreshing ? 'Refreshing...' : 'Refresh Bookings'}
    </Button>
  );
}

export function RefreshProgress({ message }: { message: string | null }) {
  return (
    <div role="status" aria-live="polite" className={message ? 'grid gap-2' : 'sr-only'}>
      {message ? (
        <>
          <Progress
            value={progressFor(message)}
            aria-label="Booking refresh progress"
            data-testid="refresh-progress"
            data-value={progressFor(message)}
          />
          <p className="text-sm" data-testid="refresh-message">
            {message}
          </p>
        </>
      ) : null}
    </div>
  );
}
