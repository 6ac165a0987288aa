import { type CheckStatus, DBS_CHECK_NAME, mayBeSent } from '@shared/safeguarding';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';
import { useOwnSafeguarding } from '../api/safeguarding-api';

/** What a facilitator can do about one check that is missing, expired or due soon. */
function whatToDo(check: CheckStatus): string {
  if (check.name === DBS_CHECK_NAME) {
    if (check.state === 'missing')
      return 'Send the office your enhanced DBS certificate (with the children’s barred list) so they can record it.';
    return 'Apply for a new enhanced DBS check, or, if you are on the DBS Update Service, ask the office to make a status check.';
  }
  if (check.state === 'missing') return `Send the office your ${check.name} with the date it is valid until.`;
  return `Renew your ${check.name} and send the office the new date it is valid until.`;
}

/**
 * Where the facilitator works (the calendar, the offers page): their safeguarding checks that are
 * missing, expired or due soon, and what to do about each. Nothing while every check is valid.
 */
export function SafeguardingNotice() {
  const own = useOwnSafeguarding();
  const status = own.data?.status;
  if (!status || status.state === 'valid') return null;
  const blocked = !mayBeSent(status.state);
  const due = status.checks.filter((check) => check.state !== 'valid');
  return (
    <section
      aria-labelledby="safeguarding-notice-heading"
      data-testid="safeguarding-notice"
      data-state={status.state}
      className={cn(
        'grid gap-2 rounded-md border p-3 text-sm [overflow-wrap:anywhere]',
        blocked ? 'border-destructive/60 bg-destructive/10' : 'border-warning/60 bg-warning/10',
      )}
    >
      <h2 id="safeguarding-notice-heading" className="flex items-center gap-2 font-semibold">
        <ShieldAlert
          aria-hidden
          className={cn('size-4 shrink-0', blocked ? 'text-destructive' : 'text-warning')}
        />
        {blocked ? 'Your safeguarding checks need updating' : 'A safeguarding check is due soon'}
      </h2>
      <p>
        {blocked
          ? 'Schools need your checks in date: until they are, you are not put forward for sessions.'
          : 'Schools need your checks in date: renew before it runs out to keep being put forward for sessions.'}
      </p>
      <ul className="grid list-disc gap-1 pl-5">
        {due.map((check) => (
          <li key={check.name}>
            <span className="font-medium">{check.message}.</span> {whatToDo(check)}
          </li>
        ))}
      </ul>
      <Link href="/settings" className="w-fit font-medium text-primary underline underline-offset-4">
        See your checks in Settings
      </Link>
    </section>
  );
}
