import { z } from 'zod';
import { passwordField, usernameField } from './users';

export { type LoginBody, loginBody, type StaffLoginBody, staffLoginBody } from './login';

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
 * The change-password form, one message per field. "Must differ from current"
 * overrides the other new-password messages, so every rule is one refinement in that order (the
 * form's resolver shows the first issue of a field).
 */
export const changePasswordForm = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine(({ currentPassword, newPassword, confirmPassword }, ctx) => {
    const issue = (field: 'currentPassword' | 'newPassword' | 'confirmPassword', message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    if (!currentPassword) issue('currentPassword', 'Current password is required');
    if (newPassword && currentPassword && newPassword === currentPassword)
      issue('newPassword', sameAsCurrent);
    else if (!newPassword) issue('newPassword', 'New password is required');
    else if (newPassword.length < 6) issue('newPassword', 'New password must be at least 6 characters');
    if (!confirmPassword) issue('confirmPassword', 'Please confirm your new password');
    else if (newPassword && confirmPassword !== newPassword)
      issue('confirmPassword', 'Passwords do not match');
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;

export { SESSION_HINT_COOKIE, SIGNED_OUT_OF_PORTAL_ONLY } from '../sign-in';

/** Signing out: `microsoftSignOut` says the session came from Microsoft, which can be signed out of too. */
export const logoutResponse = z.object({ message: z.string(), microsoftSignOut: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponse>;
