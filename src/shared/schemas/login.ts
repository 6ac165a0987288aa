import * as z from 'zod/mini';

/**
 * The two login bodies, written with zod's mini build: the login pages validate their forms with
 * them and stay small (the full build is several times the size). The server parses the same bodies.
 */

/** Facilitator login form and body. */
export const loginBody = z.object({
  username: z
    .string()
    .check(
      z.trim(),
      z.minLength(3, 'Username must be at least 3 characters'),
      z.maxLength(254, 'Username must be at most 254 characters'),
    ),
  password: z
    .string()
    .check(
      z.minLength(6, 'Password must be at least 6 characters'),
      z.maxLength(256, 'Password must be at most 256 characters'),
    ),
});
export type LoginBody = z.infer<typeof loginBody>;

const bothRequired = 'Please enter both username and password';

/** Staff login: only "both required" is checked before sending. */
export const staffLoginBody = z.object({
  username: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, bothRequired),
      z.maxLength(254, 'Username must be at most 254 characters'),
    ),
  password: z
    .string()
    .check(z.minLength(1, bothRequired), z.maxLength(256, 'Password must be at most 256 characters')),
});
export type StaffLoginBody = z.infer<typeof staffLoginBody>;
