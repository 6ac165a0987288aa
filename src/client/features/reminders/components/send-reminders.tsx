import type { SendRemindersResponse } from '@shared/schemas/reminders';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
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
import { errorMessage } from '@/lib/api';
import { useReminderSettings, useSendReminders } from '../api/reminders-api';

interface SendRemindersProps {
  /** `yyyy-MM` */
  month: string;
  /** "December 2026" */
  label: string;
  /** until the report of this month and view is in (loading, or it failed): nothing is counted or sent */
  loading: boolean;
  /** how many are partial or missing among those shown (the default recipients) */
  candidates: number;
  /** the partial and missing shown, when the view is narrowed (an area): they, not everyone, are "all" */
  shownIds?: number[] | undefined;
  /** the facilitators chosen; empty: all partial and missing shown */
  selectedIds: number[];
  /** after a send that reached the server (to refresh what the page shows) */
  onSent?: (result: SendRemindersResponse) => void;
}

/** "Send reminder": emails the partial and missing facilitators of a month, or the chosen ones. */
export function SendReminders({
  month,
  label,
  loading,
  candidates,
  shownIds,
  selectedIds,
  onSent,
}: SendRemindersProps) {
  const settings = useReminderSettings();
  const send = useSendReminders();
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<SendRemindersResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const configured = settings.data?.configured === true;
  const count = selectedIds.length > 0 ? selectedIds.length : candidates;
  const who =
    selectedIds.length > 0
      ? `the ${count === 1 ? 'facilitator' : `${count} facilitators`} you chose`
      : `the ${count === 1 ? 'facilitator who is' : `${count} facilitators who are`} partial or missing`;

  const confirm = () => {
    setError(null);
    send.mutate(
      {
        month,
        ...(selectedIds.length > 0
          ? { userIds: selectedIds }
          : shownIds?.length
            ? { userIds: shownIds }
            : {}),
      },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setConfirming(false);
          onSent?.(answer);
        },
        onError: (failure) => {
          setConfirming(false);
          setError(errorMessage(failure, 'The reminders could not be sent. Please try again.'));
        },
      },
    );
  };

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          onClick={() => setConfirming(true)}
          disabled={!configured || loading || count === 0 || send.isPending}
        >
          <Send aria-hidden />
          {send.isPending
            ? 'Sending...'
            : selectedIds.length > 0
              ? `Send reminder to ${count} chosen`
              : 'Send reminder'}
        </Button>
        {settings.data && !configured ? (
          <p className="text-muted-foreground text-sm">
            Email is not set up yet.{' '}
            <Link href="/settings" className="font-medium text-primary underline underline-offset-4">
              Add the email settings
            </Link>{' '}
            to send reminders.
          </p>
        ) : count === 0 && !loading ? (
          <p className="text-muted-foreground text-sm">Everyone shown has filled in {label}.</p>
        ) : null}
      </div>

      {error ? (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
      <div role="status" aria-live="polite">
        {result ? <ResultSummary result={result} /> : null}
      </div>

      <AlertDialog
        open={confirming}
        onOpenChange={(open) => !open && !send.isPending && setConfirming(false)}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Send reminder</AlertDialogTitle>
            <AlertDialogDescription>
              Email {who} for {label}, asking them to add their availability? Anyone already reminded about{' '}
              {label} today is skipped.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={send.isPending}>Cancel</AlertDialogCancel>
            <Button onClick={confirm} disabled={send.isPending}>
              {send.isPending ? 'Sending...' : 'Send'}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function ResultSummary({ result }: { result: SendRemindersResponse }) {
  const notes = result.results.filter((r) => r.outcome !== 'sent');
  return (
    <div className="grid gap-2 rounded-md border p-3 text-sm" data-testid="reminder-result">
      <p className="font-medium">
        Reminders for {result.label}: {result.sent} sent, {result.skipped} skipped, {result.failed} failed.
      </p>
      {notes.length > 0 ? (
        <ul className="grid gap-1">
          {notes.map((r) => (
            <li
              key={r.userId}
              className={r.outcome === 'failed' ? 'text-destructive' : 'text-muted-foreground'}
            >
              <span className="font-medium">{r.name}</span>: {r.outcome === 'failed' ? 'failed' : 'skipped'} (
              {r.reason})
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
