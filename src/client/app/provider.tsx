import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { PlainToast } from '@/components/ui/plain-toast';
import { useToast } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { queryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme';

type ToasterModule = typeof import('@/components/ui/toaster');
let toasterModule: ToasterModule | null = null;

/**
 * The toast viewport (Radix) is loaded with the first toast rather than with every page: the login
 * page then ships no toast library until a sign-in answers. Tooltips are provided by the
 * signed-in layouts, the only pages that have any.
 *
 * Not React.lazy: a lazy component whose code cannot be loaded (the connection has dropped, or a
 * new version's deploy removed the old files) throws to the app's error boundary, which would
 * replace the page, and whatever was typed in it, to report that a toast could not be shown. Here
 * that toast is drawn plainly instead, and the next toast asks for the code again.
 */
function LazyToaster() {
  const { toasts, dismiss } = useToast();
  // toast() puts the newest first
  const newest = toasts[0];
  const [failedFor, setFailedFor] = useState<string | undefined>();
  const [, setArrived] = useState(false);
  // keyed by the newest toast, so each new toast asks again after a failure
  const wanted = !toasterModule && newest !== undefined && newest.id !== failedFor ? newest.id : null;
  useEffect(() => {
    if (wanted === null) return;
    let current = true;
    import('@/components/ui/toaster').then(
      (module) => {
        toasterModule = module;
        if (current) setArrived(true);
      },
      () => current && setFailedFor(wanted),
    );
    return () => {
      current = false;
    };
  }, [wanted]);
  if (toasterModule) return <toasterModule.Toaster />;
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
