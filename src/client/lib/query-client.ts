import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { throwIfResNotOk } from './api';
import { forgetSessionHint, maySignedIn } from './session-hint';

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** Default read: GET the query key joined into a URL, parse JSON; optionally 401 → null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) {
      return null as T;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * The session read (GET /api/user, 401 → null). A browser without the sign-in hint is anonymous
 * for certain, so it is answered here without a request.
 */
export function currentUserQueryFn<T>(): QueryFunction<T | null> {
  const read = getQueryFn<T | null>({ on401: 'returnNull' });
  return async (context) => {
    if (!maySignedIn()) return null;
    const user = await read(context);
    if (user === null) forgetSessionHint();
    return user;
  };
}

/** No retry, no refetch on focus, no polling, cached data never stale. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
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
