import type { PublicUser, UpdateUserBody, UserFormValues } from '@shared/schemas/users';
import { errorFields } from '@/lib/api';

/** Name column: the display name, else the username. */
export function userName(user: Pick<PublicUser, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}

/** A moment for staff: "2 Dec 2026, 09:30". */
export function formatMoment(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
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
  const found = errorFields(error, fallback);
  return Object.values(found)[0] ?? fallback;
}

export const emptyUserForm: UserFormValues = {
  username: '',
  password: '',
  displayName: '',
  email: '',
  freelancerId: '',
  area: '',
  sendInvitation: false,
};

/** Editing fills the form from the user, with an empty password. */
export function formFromUser(user: PublicUser): UserFormValues {
  return {
    username: user.username,
    password: '',
    displayName: user.displayName ?? '',
    email: user.email ?? '',
    freelancerId: user.freelancerId ?? '',
    area: user.area ?? '',
    sendInvitation: false,
  };
}

/**
 * The edit to send: only the fields the person changed, and the version the form was loaded from.
 * Sending every field re-sent values loaded earlier and undid changes others made meanwhile; the
 * server treats a field left out as unchanged and refuses an edit made on an old version.
 */
export function userChanges(user: PublicUser, values: UserFormValues): UpdateUserBody {
  const loaded = formFromUser(user);
  const body: UpdateUserBody = { version: user.version };
  if (values.username !== loaded.username) body.username = values.username;
  // an empty password is left out: the current one stays
  if (values.password) body.password = values.password;
  if (values.displayName !== loaded.displayName) body.displayName = values.displayName;
  if (values.email !== loaded.email) body.email = values.email;
  if (values.freelancerId !== loaded.freelancerId) body.freelancerId = values.freelancerId;
  if (values.area !== loaded.area) body.area = values.area;
  return body;
}
