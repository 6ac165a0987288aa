import type { MicrosoftInvitation, MicrosoftLinkedAccounts } from '@shared/schemas/microsoft-sign-in';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { useMicrosoftSignInStatus } from '@/lib/microsoft-sign-in-status';

export const microsoftInvitationKeys = {
  linked: ['microsoft-linked-accounts'] as const,
} as const;

/** Invitations only make sense while Microsoft sign-in is configured. */
export function useMicrosoftSignInEnabled(): boolean {
  return useMicrosoftSignInStatus().data?.enabled === true;
}

/** Facilitators can be invited only once staff let facilitators sign in with Microsoft. */
export function useFacilitatorMicrosoftSignIn(): boolean {
  return useMicrosoftSignInStatus().data?.facilitatorSignIn === true;
}

/** The ids of accounts linked to a Microsoft identity; empty while Microsoft sign-in is off. */
export function useMicrosoftLinkedUserIds(): ReadonlySet<number> {
  const enabled = useMicrosoftSignInEnabled();
  const linked = useQuery({
    queryKey: microsoftInvitationKeys.linked,
    queryFn: ({ signal }) =>
      apiJson<MicrosoftLinkedAccounts>('GET', '/api/staff/microsoft-sign-in/linked', undefined, { signal }),
    enabled,
  });
  return new Set(enabled ? (linked.data?.users.map((user) => user.userId) ?? []) : []);
}

/** An invitation link; `replaceIdentity` for an account already linked (its owner is told by email). */
export function useCreateMicrosoftInvitation() {
  return useMutation<MicrosoftInvitation, Error, { userId: number; replaceIdentity: boolean }>({
    mutationFn: ({ userId, replaceIdentity }) =>
      apiJson<MicrosoftInvitation>('POST', `/api/staff/users/${userId}/microsoft-invitation`, {
        replaceIdentity,
      }),
  });
}
