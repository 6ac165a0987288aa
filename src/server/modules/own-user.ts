import { z } from 'zod';
import { dateRangeQuery } from '../../shared/schemas/common';
import { forbidden } from '../errors';

export const NOT_YOUR_CALENDAR = 'You can only see or change your own availability and bookings';

/** Query of the self-service list endpoints: a range, plus an optional `userId` that must be the caller's. */
export const ownRangeQuery = dateRangeQuery.extend({
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/**
 * The user a self-service call acts on: always the session's. Naming the session's own id is fine (the
 * client keys its queries by it); naming anybody else is 403, never silently used or ignored.
 */
export function ownUserId(sessionUserId: number, requested: number | undefined): number {
  if (requested !== undefined && requested !== sessionUserId) throw forbidden(NOT_YOUR_CALENDAR);
  return sessionUserId;
}
