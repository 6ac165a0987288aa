import * as z from 'zod/mini';

/**
 * The one shape of every error answer: a message for people and, when the request's fields were
 * refused, their messages by field (a dotted path for a nested one). Written with zod's mini build,
 * which the client reads every error with on every page, the login pages included.
 */
export const errorResponse = z.object({
  message: z.string(),
  fieldErrors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
