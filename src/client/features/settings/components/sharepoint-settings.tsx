import { ShieldAlert } from 'lucide-react';
import { type ReactNode, useDeferredValue } from 'react';
import { SharePointProblems } from '@/components/sharepoint-problems';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api';
import { useSharePointProblems, useSharePointSettings } from '../api/settings-api';
import { SettingsForm } from './settings-form';

interface SharePointSettingsProps {
  /** Shown on the "staff only" notice: the way back for a facilitator. */
  backLink: ReactNode;
}

/** The settings page body: loading, the form, or why it cannot be shown (403 for facilitators). */
export function SharePointSettings({ backLink }: SharePointSettingsProps) {
  const settings = useSharePointSettings();
  // The form is drawn from a deferred copy of the answer: the render in which the answer arrives
  // keeps the skeleton, and the form follows in React's interruptible pass, in slices (ADR 53).
  const saved = useDeferredValue(settings.data);

  // a later read that fails (the connection back after a drop) leaves the form and what was typed
  if (settings.isError && settings.data === undefined) {
    const status = settings.error instanceof ApiError ? settings.error.status : 0;
    const [title, text] =
      status === 403
        ? [
            'This page is for staff',
            'SharePoint settings can only be viewed and changed by staff. If something needs changing, please ask a member of staff.',
          ]
        : status === 401
          ? ['Please sign in again', 'Your session has ended. Sign in again to continue.']
          : ['Could not load the settings', 'The SharePoint settings could not be loaded. Please try again.'];
    return (
      <Card role="alert" data-testid="settings-unavailable">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldAlert className="size-5 text-destructive" aria-hidden />
            <h3 className="text-lg">{title}</h3>
          </CardTitle>
          <CardDescription>{text}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {status === 403 ? backLink : null}
          {status === 401 ? (
            <Button asChild>
              <a href="/auth">Sign in</a>
            </Button>
          ) : null}
          {status !== 401 && status !== 403 ? (
            <Button variant="outline" onClick={() => settings.refetch()}>
              Try again
            </Button>
          ) : null}
        </CardContent>
      </Card>
    );
  }

  if (saved === undefined) {
    return (
      <div className="grid gap-4" role="status">
        <span className="sr-only">Loading SharePoint settings</span>
        <Skeleton className="h-48 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  }

  return (
    <>
      <ProblemsCard />
      <SettingsForm saved={saved} />
    </>
  );
}

/** What keeps failing against the saved settings, above the form that may fix it. */
function ProblemsCard() {
  const problems = useSharePointProblems();
  if (!problems.data?.length) return null;
  return (
    <Card data-testid="settings-problems">
      <CardHeader>
        <CardTitle>
          <h3 className="text-lg">Needs attention</h3>
        </CardTitle>
        <CardDescription>
          SharePoint work that keeps failing with the saved settings, and what to do.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SharePointProblems problems={problems.data} />
      </CardContent>
    </Card>
  );
}
