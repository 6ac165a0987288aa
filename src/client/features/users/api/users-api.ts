import type { SafeguardingState } from '@shared/safeguarding';
import type {
  CreatedUser,
  CreateUserBody,
  PublicUser,
  UpdateUserBody,
  UsersPage,
} from '@shared/schemas/users';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { WINDOWED_FROM_ROWS } from '@/components/ui/windowed-rows';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { passwordInvitationsKey } from './password-invitation-api';

export const usersQueryKey = queryKeys.staffUsers.all;

/** What the users screen asks for: a search (trimmed; empty: none) and a safeguarding state (empty: any). */
export interface UsersFilters {
  search: string;
  safeguarding: SafeguardingState | '';
}

/**
 * A page holds as many accounts as a table draws whole (WINDOWED_FROM_ROWS): a list that short is
 * read in one request, and a longer one is windowed, reading the next page as its rows come into view.
 */
export const USERS_PAGE_SIZE = WINDOWED_FROM_ROWS;

/** The users screen's pages, under the accounts' key, so every change to an account refreshes them. */
export const usersPagesKey = (filters: UsersFilters) =>
  [...queryKeys.staffUsers.pages, filters.search, filters.safeguarding] as const;

/** The address of one page of accounts. */
export function usersPageUrl(filters: UsersFilters, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(USERS_PAGE_SIZE) });
  if (filters.search) query.set('search', filters.search);
  if (filters.safeguarding) query.set('safeguarding', filters.safeguarding);
  if (cursor) query.set('cursor', cursor);
  return `/api/staff/users?${query}`;
}

/**
 * The accounts, all roles, by name, a page at a time, as the search and the filter find them on the
 * server; the previous answer stays on screen while a new search's first page loads.
 */
export function useUsersPages(filters: UsersFilters) {
  return useInfiniteQuery({
    queryKey: usersPagesKey(filters),
    queryFn: ({ pageParam }) => apiJson<UsersPage>('GET', usersPageUrl(filters, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page: UsersPage) => page.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/**
 * Successful changes refetch the accounts, the staff grid, whose rows show them, and the safeguarding
 * statuses, whose list follows the accounts (one added, renamed, removed or deactivated).
 */
function useRefetchUsers() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.staffGrid.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.safeguardingList.all });
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
