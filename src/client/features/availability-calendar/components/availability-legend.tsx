import { useId } from 'react';
import { cn } from '@/lib/utils';

const ENTRIES = [
  { label: 'Available', swatch: 'bg-success rounded-full' },
  { label: 'Limited Availability', swatch: 'bg-warning rounded-full' },
  { label: 'Unavailable', swatch: 'bg-destructive rounded-full' },
  // the calendar's grey bar: a day nobody has marked yet
  { label: 'Not set', swatch: 'bg-muted rounded-full border border-muted-foreground/40' },
  { label: 'Booked Session', swatch: 'bg-primary rounded-[3px]' },
] as const;

/** A mark another feature draws on the calendar's days, with its key's swatch. */
export interface LegendEntry {
  label: string;
  swatch: string;
}

/**
 * The side panel's key to the calendar colours (the availability legend), and to the marks
 * the page adds to the days (`extra`, composed in by the route: the offers' dashed mark).
 */
export function AvailabilityLegend({
  className,
  extra = [],
}: {
  className?: string;
  extra?: readonly LegendEntry[];
}) {
  // the layout shows the panel twice (side panel and, on small screens, under the page)
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={cn('grid gap-3', className)}>
      <h2 id={titleId} className="font-semibold text-sm">
        Availability Legend
      </h2>
      <ul className="grid gap-2 text-sm">
        {[...ENTRIES, ...extra].map((entry) => (
          <li key={entry.label} className="flex items-center gap-2">
            <span aria-hidden className={cn('size-3.5 shrink-0', entry.swatch)} />
            {entry.label}
          </li>
        ))}
      </ul>
    </section>
  );
}
