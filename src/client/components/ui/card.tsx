import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A card; `compact` puts its header and content closer together. */
function Card({ className, compact = false, ...props }: React.ComponentProps<'div'> & { compact?: boolean }) {
  return (
    <div
      data-slot="card"
      className={cn(
        'flex flex-col rounded-xl border bg-card py-6 text-card-foreground shadow-sm',
        compact ? 'gap-4' : 'gap-6',
        className,
      )}
      {...props}
    />
  );
}

function CardHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="card-header" className={cn('flex flex-col gap-1.5 px-6', className)} {...props} />;
}

function CardTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="card-title" className={cn('font-semibold leading-tight', className)} {...props} />;
}

function CardDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="card-description" className={cn('text-muted-foreground text-sm', className)} {...props} />
  );
}

/** A card's content; `narrow` keeps less of a phone's width for the card's inner margins. */
function CardContent({
  className,
  narrow = false,
  ...props
}: React.ComponentProps<'div'> & { narrow?: boolean }) {
  return (
    <div data-slot="card-content" className={cn(narrow ? 'px-2 sm:px-6' : 'px-6', className)} {...props} />
  );
}

function CardFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="card-footer" className={cn('flex items-center px-6', className)} {...props} />;
}

export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle };
