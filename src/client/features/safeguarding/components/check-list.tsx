import { SAFEGUARDING_STATE_LABELS } from '@shared/safeguarding';
import type { SafeguardingRecordsResponse } from '@shared/schemas/safeguarding';
import { cn } from '@/lib/utils';

const TONE = {
  valid: 'text-muted-foreground',
  expiring: 'text-warning',
  expired: 'text-destructive',
  missing: 'text-destructive',
} as const;

/** Each check and where it stands, in words (colour only repeats them). */
export function CheckList({ status }: { status: SafeguardingRecordsResponse['status'] }) {
  return (
    <ul className="grid gap-1 text-sm" aria-label="Checks">
      {status.checks.map((check) => (
        <li key={check.name} className="flex flex-wrap gap-x-2">
          <span className={cn('font-medium', TONE[check.state])}>
            {SAFEGUARDING_STATE_LABELS[check.state]}
          </span>
          <span>{check.message}</span>
        </li>
      ))}
    </ul>
  );
}
