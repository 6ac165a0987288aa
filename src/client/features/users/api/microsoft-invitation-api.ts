import type {
  MicrosoftInvitation,
  MicrosoftLinkedAccounts,
  MicrosoftSignInStatus,
} from '@shared/schemas/microsoft-sign-in';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

function useMicrosoftSignInStatus() {
  return useQuery<MicrosoftSignInStatus, Error>({
    queryKey: ['/api/auth/microsoft'],
    staleTime: 60_000,
  });
}

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
  const linked = useQuery<MicrosoftLinkedAccounts, Error>({
    queryKey: ['/api/staff/microsoft-sign-in/linked'],
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
