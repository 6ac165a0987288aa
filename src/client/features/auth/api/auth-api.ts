import type { LoginBody, LogoutResponse, RegisterBody, StaffLoginBody } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import { ApiError, apiJson } from '@/lib/api';
import { clearDeviceData, endPushOnThisDevice } from '@/lib/device-data';
import { queryKeys } from '@/lib/query-keys';
import { forgetSessionHint, maySignedIn } from '@/lib/session-hint';

/** The session's cache key: the signed-in person, or null. */
export const currentUserQueryKey = queryKeys.session.all;

/**
 * The session read (GET /api/user, 401 → null). A browser without the sign-in hint is anonymous
 * for certain, so it is answered here without a request.
 */
export async function readCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<PublicUser | null> {
  if (!maySignedIn()) return null;
  try {
    return await apiJson<PublicUser>('GET', '/api/user', undefined, { signal });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    forgetSessionHint();
    return null;
  }
}

export function login(body: LoginBody): Promise<PublicUser> {
  return apiJson<PublicUser>('POST', '/api/login', body);
}

export function register(body: RegisterBody): Promise<PublicUser> {
  return apiJson<PublicUser>('POST', '/api/register', body);
}

export async function logout(): Promise<LogoutResponse> {
  return apiJson<LogoutResponse>('POST', '/api/logout');
}

/**
 * Signs out on this device: the device's push subscription ends while the session still stands,
 * then the session, then what the device kept for the person. Staff and facilitators both use it.
 */
export async function signOutHere(): Promise<LogoutResponse> {
  await endPushOnThisDevice();
  const answer = await logout();
  await clearDeviceData();
  return answer;
}

export function staffLogin(body: StaffLoginBody): Promise<PublicUser> {
  return apiJson<PublicUser>('POST', '/api/auth/staff-login', body);
}
