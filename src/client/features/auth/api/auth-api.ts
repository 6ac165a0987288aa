import type { LoginBody, RegisterBody, StaffLoginBody } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import { apiJson, apiRequest } from '@/lib/api';

/** The session query: GET /api/user, where 401 means signed out (null). */
export const currentUserQueryKey = ['/api/user'] as const;

export function login(body: LoginBody): Promise<PublicUser> {
  return apiJson<PublicUser>('POST', '/api/login', body);
}

export function register(body: RegisterBody): Promise<PublicUser> {
  return apiJson<PublicUser>('POST', '/api/register', body);
}

/** The response body is not read. */
export async function logout(): Promise<void> {
  await apiRequest('POST', '/api/logout');
}

export type StaffLoginResult = { ok: true; user: PublicUser } | { ok: false; message: string };

/**
 * Staff login reads the failure message from the body itself rather than throwing, because the page
 * shows it inline. Network failures still throw (a TypeError from fetch).
 */
export async function staffLogin(body: StaffLoginBody): Promise<StaffLoginResult> {
  const res = await fetch('/api/auth/staff-login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'include',
  });
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, user: data as PublicUser };
  const message =
    data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message
      ? data.message
      : 'Invalid credentials';
  return { ok: false, message };
}
