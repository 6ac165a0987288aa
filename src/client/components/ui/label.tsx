import { Label as LabelPrimitive } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A form label. `plain` leaves out its own layout, weight and line height, for a label that sets
 * them itself (a checkbox's label in normal weight, a label holding two lines).
 */
function Label({
  className,
  plain = false,
  ...props
}: React.ComponentProps<typeof LabelPrimitive.Root> & { plain?: boolean }) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn(
        'select-none text-sm peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
        !plain && 'flex items-center gap-2 font-medium leading-none',
        className,
      )}
      {...props}
    />
  );
}

export { Label };
