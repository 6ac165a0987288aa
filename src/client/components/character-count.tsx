import { cn } from '@/lib/utils';

const number = new Intl.NumberFormat('en-GB');

/**
 * How much of a text's limit is used, once it comes near: a field keeps everything typed or pasted
 * (nothing is cut off), and over the limit this says by how much; the form refuses to save it.
 */
export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  if (length < max * 0.9) return null;
  const over = length - max;
  return (
    <p
      id={id}
      aria-live="polite"
      data-testid="character-count"
      className={cn('text-xs', over > 0 ? 'font-medium text-destructive' : 'text-muted-foreground')}
    >
      {over > 0
        ? `${number.format(length)} characters: ${number.format(over)} over the limit of ${number.format(max)}`
        : `${number.format(length)} of ${number.format(max)} characters`}
    </p>
  );
}
