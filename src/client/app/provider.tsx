import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useToast } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { queryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme';

const Toaster = lazy(() => import('@/components/ui/toaster').then((module) => ({ default: module.Toaster })));

/**
 * The toast viewport (Radix) is loaded with the first toast rather than with every page: the login
 * page then ships no toast library until a sign-in answers. Tooltips are provided by the
 * signed-in layouts, the only pages that have any.
 */
function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <AuthProvider>
          {children}
          <LazyToaster />
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
