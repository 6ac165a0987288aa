import type { MicrosoftSignInStatus } from '@shared/schemas/microsoft-sign-in';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from './api';
import { queryKeys } from './query-keys';

/**
 * Whether Microsoft sign-in is offered, to staff and to facilitators, and whether staff passwords
 * are still taken: the login pages and the users page read it, the settings page changes it.
 */
export function useMicrosoftSignInStatus() {
  return useQuery(
    queryOptions<MicrosoftSignInStatus>({
      queryKey: queryKeys.microsoftSignInStatus.all,
      queryFn: ({ signal }) =>
        apiJson<MicrosoftSignInStatus>('GET', '/api/auth/microsoft', undefined, { signal }),
      staleTime: 60_000,
    }),
  );
}
