import type { PublicUser } from '@shared/schemas/users';
import { serverFieldErrors } from '@/lib/api';

/** Name column: the display name, else the username. */
export function userName(user: Pick<PublicUser, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}

/** Rows sorted case-insensitively by name (ties by username, then id, so the order is stable). */
export function sortUsers(users: readonly PublicUser[]): PublicUser[] {
  const key = (u: PublicUser) => userName(u).toLowerCase();
  return [...users].sort(
    (a, b) =>
      key(a).localeCompare(key(b)) ||
      a.username.toLowerCase().localeCompare(b.username.toLowerCase()) ||
      a.id - b.id,
  );
}

export type RoleLook = 'staff' | 'facilitator' | 'other';

export function roleLook(role: string): RoleLook {
  if (role === 'staff') return 'staff';
  if (role === 'facilitator') return 'facilitator';
  return 'other';
}

/**
 * The toast text for a failed request: the first field message when the server named a field
 * ("Password must be at least 6 characters"), else its message, else the fallback.
 */
export function userErrorMessage(error: unknown, fallback: string): string {
  const found = serverFieldErrors(error, fallback);
  return Object.values(found)[0] ?? fallback;
}

/** The dialog's fields; every value is a string while editing. */
export interface UserFormValues {
  username: string;
  password: string;
  displayName: string;
  email: string;
  freelancerId: string;
}

export const emptyUserForm: UserFormValues = {
  username: '',
  password: '',
  displayName: '',
  email: '',
  freelancerId: '',
};

/** Editing fills the form from the user, with an empty password (spec section 4). */
export function formFromUser(user: PublicUser): UserFormValues {
  return {
    username: user.username,
    password: '',
    displayName: user.displayName ?? '',
    email: user.email ?? '',
    freelancerId: user.freelancerId ?? '',
  };
}
