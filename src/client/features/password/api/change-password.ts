import type { ChangePasswordBody } from '@shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export function changePassword(body: ChangePasswordBody): Promise<{ message: string }> {
  return apiJson<{ message: string }>('PUT', '/api/user/password', body);
}

export function useChangePassword() {
  return useMutation<{ message: string }, Error, ChangePasswordBody>({ mutationFn: changePassword });
}
