import { LoaderCircle } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

const SPINNER_SIZE = { sm: 'size-4', md: 'size-6', lg: 'size-8' } as const;

/** A spinning indicator announced to assistive technology as a status. */
function Spinner({
  className,
  label = 'Loading',
  size = 'md',
  ...props
}: Omit<React.ComponentProps<'svg'>, 'size'> & { label?: string; size?: keyof typeof SPINNER_SIZE }) {
  return (
    <span role="status" className="inline-flex" data-slot="spinner">
      <LoaderCircle
        className={cn('animate-spin text-primary', SPINNER_SIZE[size], className)}
        aria-hidden
        {...props}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export { Spinner };
