import { CalendarPlus, Check, Copy, RefreshCw, ShieldAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { feedUrl, useCalendarFeed, useCalendarFeedAction, webcalUrl } from '../api/calendar-feed-api';

type Confirm = 'rotate' | 'off' | null;

const CONFIRM_TEXT = {
  rotate: {
    title: 'Get a new link?',
    description:
      'The current link stops working at once. Calendars subscribed with it stop updating until you subscribe again with the new link.',
    action: 'Get new link',
    pending: 'Creating...',
  },
  off: {
    title: 'Turn off your calendar feed?',
    description:
      'The link stops working at once and subscribed calendars stop updating. You can turn the feed on again later; it will have a new link.',
    action: 'Turn off',
    pending: 'Turning off...',
  },
} as const;

/** The facilitator's personal iCalendar feed: turn on, copy the link, get a new one, turn off. */
export function CalendarFeedCard() {
  const feed = useCalendarFeed();
  const action = useCalendarFeedAction();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [copied, setCopied] = useState<'copied' | 'select' | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();

  // the confirmation fades after a few seconds, so a second copy shows it again
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(null), 4000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const run = (kind: 'on' | 'rotate' | 'off') =>
    action.mutate(kind, {
      onSuccess: () => {
        setConfirm(null);
        setCopied(null);
        toast({
          title:
            kind === 'on'
              ? 'Calendar feed turned on'
              : kind === 'rotate'
                ? 'New link created'
                : 'Calendar feed turned off',
          description:
            kind === 'off'
              ? 'The old link no longer works.'
              : kind === 'rotate'
                ? 'The old link no longer works. Subscribe your calendars with the new one.'
                : 'Copy the link into your calendar app.',
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'The calendar feed could not be changed',
          description: errorMessage(error, 'Please try again.'),
        }),
    });

  const url = feed.data?.path ? feedUrl(feed.data.path) : null;

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      // no clipboard (an insecure origin, or permission refused): select the text for the user instead
      inputRef.current?.focus();
      inputRef.current?.select();
      setCopied('select');
    }
  };

  return (
    <Card data-testid="calendar-feed">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarPlus className="size-5" aria-hidden />
          <h2 className="text-lg">Calendar feed</h2>
        </CardTitle>
        <CardDescription>
          See your bookings in Outlook, Google Calendar or Apple Calendar. Your calendar app subscribes to a
          private link and picks up new and changed bookings by itself.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {feed.isPending ? (
          <div role="status" className="grid gap-2">
            <span className="sr-only">Loading your calendar feed</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-40" />
          </div>
        ) : feed.isError ? (
          <div role="alert" className="grid gap-2">
            <p className="text-destructive text-sm">Your calendar feed could not be loaded.</p>
            <Button variant="outline" className="w-fit" onClick={() => feed.refetch()}>
              Try again
            </Button>
          </div>
        ) : !feed.data.enabled ? (
          <div className="grid gap-3">
            <p className="text-sm" data-testid="feed-off">
              Your calendar feed is off.
            </p>
            <Button className="w-fit" disabled={action.isPending} onClick={() => run('on')}>
              <CalendarPlus aria-hidden />
              {action.isPending ? 'Turning on...' : 'Turn on calendar feed'}
            </Button>
          </div>
        ) : (
          <div className="grid gap-3">
            {url ? (
              <div className="grid gap-2">
                <Label htmlFor={inputId}>Your calendar feed link</Label>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input
                    id={inputId}
                    ref={inputRef}
                    readOnly
                    value={url}
                    aria-describedby={hintId}
                    onFocus={(event) => event.currentTarget.select()}
                    code
                    data-testid="feed-url"
                  />
                  <Button variant="secondary" className="shrink-0" onClick={copy}>
                    {copied === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
                    Copy link
                  </Button>
                </div>
                <p className="min-h-5 font-medium text-sm text-success" role="status" aria-live="polite">
                  {copied === 'copied'
                    ? 'Link copied. Paste it into your calendar app.'
                    : copied === 'select'
                      ? 'The link is selected: press Ctrl+C (or ⌘C) to copy it.'
                      : ''}
                </p>
                <p id={hintId} className="flex items-start gap-2 text-muted-foreground text-sm">
                  <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                  Anyone with this link can see your bookings. Keep it to yourself; if it may have been
                  shared, get a new link.
                </p>
                <a
                  href={webcalUrl(url)}
                  className="w-fit text-primary text-sm underline underline-offset-4 hover:no-underline"
                >
                  Open in Apple Calendar
                </a>
              </div>
            ) : (
              <p className="text-sm" role="note">
                Your calendar feed is on, but its link can no longer be shown here. Get a new link to
                subscribe another calendar (calendars using the old link then stop updating).
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" disabled={action.isPending} onClick={() => setConfirm('rotate')}>
                <RefreshCw aria-hidden />
                Get a new link
              </Button>
              <Button variant="outline" disabled={action.isPending} onClick={() => setConfirm('off')}>
                Turn off
              </Button>
            </div>
          </div>
        )}
        <SubscribeHelp />
      </CardContent>
      <AlertDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && !action.isPending && setConfirm(null)}
      >
        <AlertDialogContent>
          {confirm ? (
            <>
              <AlertDialogHeader>
                <AlertDialogTitle>{CONFIRM_TEXT[confirm].title}</AlertDialogTitle>
                <AlertDialogDescription>{CONFIRM_TEXT[confirm].description}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel disabled={action.isPending}>Cancel</AlertDialogCancel>
                <Button
                  variant={confirm === 'off' ? 'destructive' : 'default'}
                  disabled={action.isPending}
                  onClick={() => run(confirm)}
                >
                  {action.isPending ? CONFIRM_TEXT[confirm].pending : CONFIRM_TEXT[confirm].action}
                </Button>
              </AlertDialogFooter>
            </>
          ) : null}
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

const HELP: { app: string; steps: string[] }[] = [
  {
    app: 'Outlook',
    steps: [
      'In Outlook on the web or the new Outlook, open Calendar.',
      'Choose Add calendar, then Subscribe from web.',
      'Paste the link, give the calendar a name and choose Import.',
    ],
  },
  {
    app: 'Google Calendar',
    steps: [
      'On a computer, open Google Calendar.',
      'Next to Other calendars choose +, then From URL.',
      'Paste the link and choose Add calendar. It then shows on your phone too.',
    ],
  },
  {
    app: 'Apple Calendar',
    steps: [
      'iPhone or iPad: Settings, Apps, Calendar, Calendar Accounts, Add Account, Other, Add Subscribed Calendar; paste the link.',
      'Mac: in Calendar choose File, New Calendar Subscription; paste the link.',
      'Or use "Open in Apple Calendar" above on the device itself.',
    ],
  },
];

function SubscribeHelp() {
  return (
    <div className="grid gap-2 border-t pt-4">
      <h3 className="font-medium text-sm">How to subscribe</h3>
      {HELP.map(({ app, steps }) => (
        <details key={app} className="group rounded-md border px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
            {app}
          </summary>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-muted-foreground">
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </details>
      ))}
      <p className="text-muted-foreground text-xs">
        Calendar apps check for changes on their own schedule: Outlook and Apple every hour or so, Google
        every few hours up to a day. The portal always shows the latest bookings.
      </p>
    </div>
  );
}
