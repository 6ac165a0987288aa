import { SAFEGUARDING_STATE_LABELS, type SafeguardingState } from '@shared/safeguarding';
import { ShieldAlert, ShieldCheck, ShieldQuestionMark, ShieldX } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

const VARIANT = {
  valid: 'success',
  expiring: 'warning',
  expired: 'destructive',
  missing: 'destructive',
} as const;

const ICON = { valid: ShieldCheck, expiring: ShieldAlert, expired: ShieldX, missing: ShieldQuestionMark };

/**
 * A person's safeguarding state where their name is (grid rows, the users table, who is free); the
 * reasons, when given, are its tooltip and part of its accessible name.
 */
export function SafeguardingBadge({
  state,
  reasons = [],
  compact = false,
}: {
  state: SafeguardingState;
  reasons?: readonly string[];
  /** the icon alone (with the words for screen readers), where a row has little room */
  compact?: boolean;
}) {
  const Icon = ICON[state];
  const label = SAFEGUARDING_STATE_LABELS[state];
  const detail = reasons.length > 0 ? `${label}: ${reasons.join('; ')}` : label;
  return (
    <Badge variant={VARIANT[state]} title={detail} data-safeguarding={state}>
      <Icon aria-hidden />
      {compact ? <span className="sr-only">{detail}</span> : <span>{label}</span>}
      {!compact && reasons.length > 0 ? <span className="sr-only">: {reasons.join('; ')}</span> : null}
    </Badge>
  );
}
