import type { ReactNode } from 'react';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';

/** A page anyone may open, signed in or not (a forgotten password, a link from an email). */
export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/50 dark:bg-background">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <BrandLogo />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 pb-10">{children}</main>
    </div>
  );
}
