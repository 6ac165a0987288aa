import type { AccountInvitation, PasswordInvitationStatus } from '@shared/schemas/auth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

const urlFor = (userId: number) => `/api/staff/users/${userId}/password-invitation`;

/** An account's latest invitation to set its own password (sent, by whom, until, joined). */
export function usePasswordInvitation(userId: number | null) {
  return useQuery<PasswordInvitationStatus, Error>({
    queryKey: [urlFor(userId ?? 0)],
    queryFn: () => apiJson('GET', urlFor(userId ?? 0)),
    enabled: userId !== null,
  });
}

/** Email the invitation (again); the answer is the invitation's new state. */
export function useSendPasswordInvitation(userId: number | null) {
  const queryClient = useQueryClient();
  return useMutation<PasswordInvitationStatus, Error>({
    mutationFn: () => apiJson('POST', urlFor(userId ?? 0)),
    onSuccess: (status) => {
      queryClient.setQueryData([urlFor(userId ?? 0)], status);
      void queryClient.invalidateQueries({ queryKey: passwordInvitationsKey });
    },
  });
}

/** Every account's password state and latest invitation (the users table's sign-in line). */
export const passwordInvitationsKey = ['password-invitations'] as const;

export function usePasswordInvitations() {
  return useQuery<AccountInvitation[], Error>({
    queryKey: passwordInvitationsKey,
    queryFn: () => apiJson('GET', '/api/staff/password-invitations'),
  });
}
