import type { CreatedUser, CreateUserBody, PublicUser, UpdateUserBody } from '@shared/schemas/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { passwordInvitationsKey } from './password-invitation-api';

export const usersQueryKey = queryKeys.staffUsers.all;

/** Every account, all roles (the table shows each with its role badge). */
export function useUsers() {
  return useQuery<PublicUser[], Error>({
    queryKey: usersQueryKey,
    queryFn: () => apiJson<PublicUser[]>('GET', '/api/staff/users'),
  });
}

/** Successful changes refetch the list, and the staff grid, whose rows show the accounts. */
function useRefetchUsers() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.staffGrid.all });
    void queryClient.invalidateQueries({ queryKey: passwordInvitationsKey });
    return queryClient.invalidateQueries({ queryKey: usersQueryKey });
  };
}

export function useCreateUser() {
  const refetch = useRefetchUsers();
  return useMutation<CreatedUser, Error, CreateUserBody>({
    mutationFn: (body) => apiJson<CreatedUser>('POST', '/api/staff/users', body),
    onSuccess: refetch,
  });
}

export function useUpdateUser() {
  const refetch = useRefetchUsers();
  return useMutation<PublicUser, Error, { id: number; body: UpdateUserBody }>({
    mutationFn: ({ id, body }) => apiJson<PublicUser>('PUT', `/api/staff/users/${id}`, body),
    // also after a refusal: an edit made on stale data (409) is refused, and the table then shows
    // what the account is now
    onSettled: refetch,
  });
}

export function useDeleteUser() {
  const refetch = useRefetchUsers();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiJson<void>('DELETE', `/api/staff/users/${id}`),
    onSuccess: refetch,
  });
}

/** Staff deactivate a leaver's account, or reactivate it (until it is anonymised). */
export function useSetUserActive() {
  const refetch = useRefetchUsers();
  return useMutation<PublicUser, Error, { id: number; active: boolean }>({
    mutationFn: ({ id, active }) =>
      apiJson<PublicUser>('POST', `/api/staff/users/${id}/${active ? 'reactivate' : 'deactivate'}`),
    onSettled: refetch,
  });
}

/** Staff clear an account's sign-in pauses after failed sign-ins; the answer's message says whose. */
export function useUnlockUser() {
  return useMutation<{ message: string }, Error, number>({
    mutationFn: (id) => apiJson<{ message: string }>('POST', `/api/staff/users/${id}/unlock`),
  });
}
