import * as z from 'zod/mini';
import { blankIfInvisible } from '../username';

/**
 * A decline's body, written with zod's mini build: the facilitator's offers page validates its decline
 * form with it and stays small (the full build is several times the size). The server parses the same body.
 */
export const DECLINE_REASON_MAX = 500;

export const declineBody = z.object({
  reason: z._default(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(DECLINE_REASON_MAX, `The reason must be at most ${DECLINE_REASON_MAX} characters`),
        z.overwrite(blankIfInvisible),
      ),
    '',
  ),
});
export type DeclineInput = z.input<typeof declineBody>;
export type Decline = z.output<typeof declineBody>;
