import type { MicrosoftSignInStatus } from '@shared/schemas/microsoft-sign-in';
import { useQuery } from '@tanstack/react-query';

export const MICROSOFT_STATUS_KEY = '/api/auth/microsoft';

/**
 * Whether the staff login page offers Microsoft sign-in and still takes staff passwords, and whether
 * the facilitator login page offers it.
 */
export function useMicrosoftSignInStatus() {
  return useQuery<MicrosoftSignInStatus, Error>({ queryKey: [MICROSOFT_STATUS_KEY], staleTime: 60_000 });
}
