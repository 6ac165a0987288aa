import { z } from 'zod';
import { passwordField, usernameField } from './users';

/** Facilitator login form and body (spec section 5). */
export const loginBody = z.object({
  username: z
    .string()
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(254, 'Username must be at most 254 characters'),
  password: z
    .string()
    .min(6, 'Password must be at least 6 characters')
    .max(256, 'Password must be at most 256 characters'),
});
export type LoginBody = z.infer<typeof loginBody>;

const bothRequired = 'Please enter both username and password';

/** Staff login: only "both required" is checked before sending. */
export const staffLoginBody = z.object({
  username: z.string().trim().min(1, bothRequired).max(254, 'Username must be at most 254 characters'),
  password: z.string().min(1, bothRequired).max(256, 'Password must be at most 256 characters'),
});
export type StaffLoginBody = z.infer<typeof staffLoginBody>;

export const registerBody = z.object({
  username: usernameField.min(3, 'Username must be at least 3 characters'),
  password: passwordField,
  displayName: z.string().trim().max(200).optional(),
  email: z.string().trim().max(254).optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** What the server accepts for a password change. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(256),
  newPassword: z
    .string()
    .min(1, 'New password is required')
    .min(6, 'New password must be at least 6 characters')
    .max(256, 'New password must be at most 256 characters'),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

const sameAsCurrent = 'New password must be different from current password';

/**
 * The change-password form (spec section 5). "Must differ from current" overrides the other
 * new-password messages, so it is checked last and replaces them.
 */
export const changePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: z
      .string()
      .min(1, 'New password is required')
      .min(6, 'New password must be at least 6 characters'),
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .superRefine((value, ctx) => {
    if (value.confirmPassword && value.newPassword && value.confirmPassword !== value.newPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
    }
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;

/** Errors for the change-password form with the "must differ" override applied. */
export function changePasswordFormErrors(
  value: ChangePasswordForm,
): Partial<Record<keyof ChangePasswordForm, string>> {
  const errors: Partial<Record<keyof ChangePasswordForm, string>> = {};
  const parsed = changePasswordForm.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof ChangePasswordForm;
      errors[key] ??= issue.message;
    }
  }
  if (value.newPassword && value.currentPassword && value.newPassword === value.currentPassword) {
    errors.newPassword = sameAsCurrent;
  }
  return errors;
}

/**
 * A cookie scripts may read, set beside the (HttpOnly) session cookie and cleared with it. It holds no
 * secret, only "someone may be signed in here": without it the client knows the visitor is anonymous
 * and does not ask `/api/user` (a 401 the browser would log as an error) or prefetch their calendar.
 */
export const SESSION_HINT_COOKIE = 'afp_signed_in';
