import type { MicrosoftSignInStatus } from '@shared/schemas/microsoft-sign-in';
import { useQuery } from '@tanstack/react-query';

export const MICROSOFT_STATUS_KEY = '/api/auth/microsoft';

/** Whether the staff login page offers Microsoft sign-in and still takes staff passwords. */
export function useMicrosoftSignInStatus() {
  return useQuery<MicrosoftSignInStatus, Error>({ queryKey: [MICROSOFT_STATUS_KEY], staleTime: 60_000 });
}

/** Where the browser goes to sign in with Microsoft (a full navigation: it leaves the portal). */
export function microsoftStartUrl(invitation: string | null): string {
  return invitation
    ? `/api/auth/microsoft/start?invitation=${encodeURIComponent(invitation)}`
    : '/api/auth/microsoft/start';
}
