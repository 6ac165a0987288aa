import type { PublicUser } from '@shared/schemas/users';
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { AuthProvider } from '@/features/auth/auth-provider';
import { createQueryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme';

export interface RenderOptions {
  /** the address the app is at (wouter's location, kept in memory); "/" unless given */
  path?: string;
  /** who is signed in, or null for nobody; the session read is then answered without a request */
  user?: PublicUser | null;
}

/**
 * Renders a piece of the client as the app does (main.tsx, provider.tsx): a fresh query client with
 * the app's defaults, the theme, the session, tooltips and the toast queue, inside a router whose
 * location lives in memory. Returns Testing Library's queries, a `user` to type and click with, the
 * query client and the router's history (`history` lists every path it went to).
 */
export function renderWithApp(ui: ReactElement, { path = '/', user = null }: RenderOptions = {}) {
  const queryClient: QueryClient = createQueryClient();
  queryClient.setQueryData(currentUserQueryKey, user);
  const location = memoryLocation({ path, record: true });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook}>
        <ThemeProvider>
          <AuthProvider>
            <TooltipProvider>{ui}</TooltipProvider>
            <Toaster />
          </AuthProvider>
        </ThemeProvider>
      </Router>
    </QueryClientProvider>,
  );
  return { ...result, user: userEvent.setup(), queryClient, history: location.history };
}
