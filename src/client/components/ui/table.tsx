import type * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A table that scrolls sideways inside its container when the screen is narrow. A long table that
 * draws only the rows in view (components/ui/windowed-rows.tsx) scrolls down inside its container
 * too: `scrollRef` is that container, a region reachable by keyboard.
 */
function Table({
  className,
  containerLabel,
  scrollRef,
  ...props
}: React.ComponentProps<'table'> & {
  containerLabel?: string;
  scrollRef?: React.Ref<HTMLDivElement> | undefined;
}) {
  const scrolls = scrollRef !== undefined;
  return (
    <div
      ref={scrollRef}
      data-slot="table-container"
      className={cn('relative w-full overflow-x-auto', scrolls && 'max-h-[70vh] overflow-y-auto')}
      {...(scrolls
        ? { role: 'region', 'aria-label': `${containerLabel ?? 'Table'}, scrollable`, tabIndex: 0 }
        : {})}
    >
      <table
        data-slot="table"
        aria-label={containerLabel}
        className={cn('w-full caption-bottom text-sm', className)}
        {...props}
      />
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

/** A table row; `highlight` false for a row that does not light up under the pointer (a heading row). */
function TableRow({
  className,
  highlight = true,
  ...props
}: React.ComponentProps<'tr'> & { highlight?: boolean }) {
  return (
    <tr
      data-slot="table-row"
      className={cn('border-b transition-colors', highlight && 'hover:bg-muted/50', className)}
      {...props}
    />
  );
}

function TableHead({
  className,
  align = 'left',
  ...props
}: React.ComponentProps<'th'> & { align?: 'left' | 'right' }) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 whitespace-nowrap px-3 align-middle font-medium text-muted-foreground',
        align === 'right' ? 'text-right' : 'text-left',
        className,
      )}
      {...props}
    />
  );
}

/** A table cell, on one line unless `wrap`. */
function TableCell({ className, wrap = false, ...props }: React.ComponentProps<'td'> & { wrap?: boolean }) {
  return (
    <td
      data-slot="table-cell"
      className={cn('px-3 py-2.5 align-middle', wrap ? 'whitespace-normal' : 'whitespace-nowrap', className)}
      {...props}
    />
  );
}

/** A row holding one message across the whole table, such as that it has no rows. */
function TableMessage({ colSpan, children }: { colSpan: number; children: React.ReactNode }) {
  return (
    <tr data-slot="table-row" className="border-b">
      <td
        data-slot="table-cell"
        colSpan={colSpan}
        className="whitespace-normal px-3 py-8 text-center align-middle text-muted-foreground"
      >
        {children}
      </td>
    </tr>
  );
}

function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption
      data-slot="table-caption"
      className={cn('mt-4 text-muted-foreground text-sm', className)}
      {...props}
    />
  );
}

export { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessage, TableRow };
