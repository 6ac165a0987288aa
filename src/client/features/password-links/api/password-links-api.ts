import type { ForgotPasswordBody, PasswordLinkResponse } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

/** Ask for a link to set a new password; the answer is the same whether or not the account exists. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) =>
      apiJson<{ message: string }>('POST', '/api/password-reset', body),
  });
}

/** What a link is for and whose account it sets; an error when it no longer works. */
export function usePasswordLink(token: string) {
  return useQuery<PasswordLinkResponse>({
    queryKey: ['/api/password-links/view', token],
    // the token goes in the body, so no proxy or log records it with the address
    queryFn: () => apiJson('POST', '/api/password-links/view', { token }),
    enabled: token !== '',
    retry: false,
  });
}

/** Set the password through the link; the answer signs the person in. */
export function useSetPasswordByLink(token: string) {
  return useMutation({
    mutationFn: (newPassword: string) =>
      apiJson<PublicUser>('POST', '/api/password-links/use', { token, newPassword }),
  });
}
