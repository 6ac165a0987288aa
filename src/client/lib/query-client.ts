import { QueryClient } from '@tanstack/react-query';

/**
 * No retry, no refetch on focus, no polling, cached data never stale. There is no default query
 * function: every query names its own, which reads through `apiJson`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
