import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A text area; `code` sets pasted text such as a certificate in smaller monospaced type. */
function Textarea({
  className,
  code = false,
  ...props
}: React.ComponentProps<'textarea'> & { code?: boolean }) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(
        'flex min-h-16 w-full rounded-md border border-input bg-background px-3 py-2 shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
        code ? 'font-mono text-xs md:text-sm' : 'text-base md:text-sm',
        className,
      )}
      {...props}
    />
  );
}

export { Textarea };
