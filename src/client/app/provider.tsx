import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { PlainToast } from '@/components/ui/plain-toast';
import { useToast } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { onDemand, useOnDemand } from '@/lib/on-demand';
import { queryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme';

const toasterCode = onDemand(() => import('@/components/ui/toaster'));

/**
 * The toast viewport (Radix) is loaded with the first toast rather than with every page: the login
 * page then ships no toast library until a sign-in answers. Tooltips are provided by the
 * signed-in layouts, the only pages that have any.
 *
 * Loaded with onDemand rather than React.lazy: a lazy component whose code cannot be loaded (the
 * connection has dropped, or a new version's deploy removed the old files) throws to the app's
 * error boundary, which would replace the page, and whatever was typed in it, to report that a
 * toast could not be shown. Here that toast is drawn plainly instead (the message may be the very
 * one that says why code cannot be loaded), and the next toast asks for the code again.
 */
function LazyToaster() {
  const { toasts, dismiss } = useToast();
  // toast() puts the newest first
  const newest = toasts[0];
  const [failedFor, setFailedFor] = useState<string | undefined>();
  // keyed by the newest toast, so each new toast asks again after a failure
  const wanted = newest !== undefined && newest.id !== failedFor ? newest.id : false;
  const code = useOnDemand(toasterCode, wanted, () => setFailedFor(newest?.id));
  if (code) return <code.Toaster />;
  if (newest?.open && newest.id === failedFor)
    return <PlainToast toast={newest} onClose={() => dismiss(newest.id)} />;
  return null;
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
