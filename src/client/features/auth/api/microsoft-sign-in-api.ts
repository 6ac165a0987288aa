import type { MicrosoftSignInPage, MicrosoftSignInStatus } from '@shared/schemas/microsoft-sign-in';
import { useQuery } from '@tanstack/react-query';

export const MICROSOFT_STATUS_KEY = '/api/auth/microsoft';

/**
 * Whether the staff login page offers Microsoft sign-in and still takes staff passwords, and whether
 * the facilitator login page offers it.
 */
export function useMicrosoftSignInStatus() {
  return useQuery<MicrosoftSignInStatus, Error>({ queryKey: [MICROSOFT_STATUS_KEY], staleTime: 60_000 });
}

/**
 * Where the browser goes to sign in with Microsoft (a full navigation: it leaves the portal). `page`
 * is the login page it comes back to if the sign-in fails.
 */
export function microsoftStartUrl(invitation: string | null, page: MicrosoftSignInPage = 'staff'): string {
  const query = new URLSearchParams();
  if (invitation) query.set('invitation', invitation);
  if (page !== 'staff') query.set('page', page);
  const search = query.toString();
  return search ? `/api/auth/microsoft/start?${search}` : '/api/auth/microsoft/start';
}
