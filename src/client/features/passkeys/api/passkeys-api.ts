import type { PasskeySummary, SignInPolicy, SignInPolicyBody } from '@shared/schemas/passkeys';
import type { PublicUser } from '@shared/schemas/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

/** The passkeys feature's cache keys. */
export const passkeysKeys = {
  all: ['passkeys'] as const,
  mine: () => ['passkeys', 'mine'] as const,
  status: () => ['passkeys', 'status'] as const,
};

// The browser library is loaded only when a ceremony starts, so pages without passkeys never carry it.
const browserLibrary = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Whether the portal offers passkeys (it needs PUBLIC_URL). */
export function usePasskeyStatus() {
  return useQuery<{ enabled: boolean }, Error>({
    queryKey: passkeysKeys.status(),
    queryFn: () => apiJson('GET', '/api/passkeys/status'),
  });
}

export function usePasskeys() {
  return useQuery<PasskeySummary[], Error>({
    queryKey: passkeysKeys.mine(),
    queryFn: () => apiJson('GET', '/api/passkeys'),
  });
}

/** Ask the server for a challenge, let the browser make the passkey, and keep it under its name. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation<PasskeySummary, Error, { name: string }>({
    mutationFn: async ({ name }) => {
      const { options } = await apiJson<{ options: Record<string, unknown> }>(
        'POST',
        '/api/passkeys/options',
      );
      const { startRegistration } = await browserLibrary();
      const response = await startRegistration({
        optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
      });
      return apiJson<PasskeySummary>('POST', '/api/passkeys', { name, response });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKeys.mine() }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation<PasskeySummary, Error, { id: number; name: string }>({
    mutationFn: ({ id, name }) => apiJson('PUT', `/api/passkeys/${id}`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKeys.mine() }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiJson('DELETE', `/api/passkeys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKeys.mine() }),
  });
}

export type PasskeyPage = 'facilitator' | 'staff';

/**
 * Sign in with a passkey: a challenge from the server, the browser's answer, the server's session.
 * `autofill`: wait for the person to pick a passkey from the username field's suggestions (the
 * browser's conditional UI) instead of opening the passkey dialog.
 */
export async function signInWithPasskey(page: PasskeyPage, autofill = false): Promise<PublicUser> {
  const { options } = await apiJson<{ options: Record<string, unknown> }>(
    'POST',
    '/api/passkey-sign-in/options',
  );
  const { startAuthentication } = await browserLibrary();
  const response = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    useBrowserAutofill: autofill,
  });
  return apiJson<PublicUser>('POST', '/api/passkey-sign-in', { response, page });
}

/** Whether the browser offers passkeys in the username field's suggestions. */
export async function browserHasPasskeyAutofill(): Promise<boolean> {
  if (!browserHasPasskeys()) return false;
  const check = (
    window.PublicKeyCredential as unknown as { isConditionalMediationAvailable?: () => Promise<boolean> }
  ).isConditionalMediationAvailable;
  return check ? check().catch(() => false) : false;
}

/** Whether staff must sign in with a passkey or Microsoft (staff settings). */
export function useSignInPolicy() {
  return useQuery<SignInPolicy, Error>({
    queryKey: [...passkeysKeys.all, 'policy'],
    queryFn: () => apiJson('GET', '/api/staff/sign-in-policy'),
  });
}

export function useSaveSignInPolicy() {
  const queryClient = useQueryClient();
  return useMutation<SignInPolicy, Error, SignInPolicyBody>({
    mutationFn: (body) => apiJson('PUT', '/api/staff/sign-in-policy', body),
    onSuccess: (saved) => queryClient.setQueryData([...passkeysKeys.all, 'policy'], saved),
  });
}
