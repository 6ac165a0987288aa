import type { PublicUser } from '@shared/schemas/users';

/**
 * An account as `GET /api/user` and the users list answer it: a facilitator with no email, area or
 * history, unless given. A test names only what it is about.
 */
export function anAccount(values: Pick<PublicUser, 'id' | 'username'> & Partial<PublicUser>): PublicUser {
  return {
    displayName: values.username,
    email: null,
    freelancerId: null,
    role: 'facilitator',
    area: null,
    lastAvailabilityUpdatedAt: null,
    version: 1,
    deactivatedAt: null,
    anonymisedAt: null,
    ...values,
  };
}
