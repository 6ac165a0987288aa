import { cn } from '@/lib/utils';

/** The mark alone: a rounded tile with an "A" stroke under a brush arc and a paint dot. */
function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8 shrink-0', className)} aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M9 23 16 8l7 15"
        fill="none"
        className="stroke-primary-foreground"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M11 18.6c3.2 2.2 6.8 2.2 10 0"
        fill="none"
        className="stroke-brand-accent"
        strokeWidth="2.5"
        strokeLinecap="round"
      />
      <circle cx="24.5" cy="8.5" r="2.5" className="fill-brand-accent" />
    </svg>
  );
}

/** Mark + wordmark. `collapse` hides the wordmark visually on small screens but keeps it for screen readers. */
function BrandLogo({ className, collapse = false }: { className?: string; collapse?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)} data-slot="brand-logo">
      <BrandMark />
      <span
        className={cn(
          'whitespace-nowrap font-semibold text-base tracking-tight',
          collapse && 'sr-only sm:not-sr-only',
        )}
      >
        Arts Facilitator Portal
      </span>
    </span>
  );
}

export { BrandLogo, BrandMark };
