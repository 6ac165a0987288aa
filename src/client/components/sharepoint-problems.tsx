import type { SharePointProblem } from '@shared/schemas/scheduler';
import { TriangleAlert } from 'lucide-react';

const TITLES: Record<SharePointProblem['area'], string> = {
  bookings: 'Bookings are not coming in from SharePoint',
  availability: 'Availability is not reaching SharePoint',
};

function waitingText(days: number | null): string | null {
  if (!days) return null;
  return days === 1
    ? '1 day of availability is waiting to be sent.'
    : `${days} days of availability are waiting to be sent.`;
}

/**
 * SharePoint work that keeps failing: what, since when, and what staff can do. Shown on the dashboard's
 * status line and on the settings page, from the same scheduler status.
 */
export function SharePointProblems({ problems }: { problems: SharePointProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="grid min-w-0 gap-2" data-testid="sharepoint-problems" aria-label="SharePoint problems">
      {problems.map((problem) => (
        <li
          key={problem.area}
          data-area={problem.area}
          className="grid min-w-0 gap-1 rounded-md border border-warning/60 bg-warning/10 p-3 text-foreground text-sm"
        >
          <p className="flex items-start gap-2 font-semibold">
            <TriangleAlert
              className="mt-0.5 size-4 shrink-0 text-warning-foreground dark:text-warning"
              aria-hidden
            />
            {TITLES[problem.area]} (since {problem.since.charAt(0).toLowerCase() + problem.since.slice(1)})
          </p>
          {/* Graph's messages carry long unbroken addresses: they must wrap, not widen a phone's page */}
          <p className="pl-6 text-muted-foreground [overflow-wrap:anywhere]">{problem.message}</p>
          {waitingText(problem.waitingDays) ? (
            <p className="pl-6">{waitingText(problem.waitingDays)}</p>
          ) : null}
          <p className="pl-6 [overflow-wrap:anywhere]">
            <span className="font-medium">What to do: </span>
            {problem.action}
          </p>
        </li>
      ))}
    </ul>
  );
}
