import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A text input. `code` sets a value such as an address in small monospaced type; `compact` is a lower
 * field, for a search inside a small panel.
 */
function Input({
  className,
  type,
  code = false,
  compact = false,
  ...props
}: React.ComponentProps<'input'> & { code?: boolean; compact?: boolean }) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        'flex w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 shadow-xs outline-none transition-[color,box-shadow] placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50',
        compact ? 'h-8' : 'h-10',
        code ? 'font-mono text-xs' : 'text-base md:text-sm',
        'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40',
        'aria-invalid:border-destructive aria-invalid:ring-destructive/20',
        'file:border-0 file:bg-transparent file:font-medium file:text-sm',
        className,
      )}
      {...props}
    />
  );
}

export { Input };
