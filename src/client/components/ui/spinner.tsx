import { LoaderCircle } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A spinning indicator announced to assistive technology as a status. */
function Spinner({
  className,
  label = 'Loading',
  ...props
}: React.ComponentProps<'svg'> & { label?: string }) {
  return (
    <span role="status" className="inline-flex" data-slot="spinner">
      <LoaderCircle className={cn('size-6 animate-spin text-primary', className)} aria-hidden {...props} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export { Spinner };
