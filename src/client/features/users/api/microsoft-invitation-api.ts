import type { MicrosoftInvitation, MicrosoftSignInStatus } from '@shared/schemas/microsoft-sign-in';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

/** Invitations only make sense while Microsoft sign-in is configured. */
export function useMicrosoftSignInEnabled(): boolean {
  const status = useQuery<MicrosoftSignInStatus, Error>({
    queryKey: ['/api/auth/microsoft'],
    staleTime: 60_000,
  });
  return status.data?.enabled === true;
}

export function useCreateMicrosoftInvitation() {
  return useMutation<MicrosoftInvitation, Error, number>({
    mutationFn: (userId) =>
      apiJson<MicrosoftInvitation>('POST', `/api/staff/users/${userId}/microsoft-invitation`),
  });
}
