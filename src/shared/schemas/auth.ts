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

type NewPasswordField = 'newPassword' | 'confirmPassword';

/**
 * The new-password rules every form that sets a password shows, one message per field, in order
 * (the form's resolver shows the first issue of a field). `sameAsCurrent`: the change-password form's
 * "must differ from current", which overrides the other new-password messages.
 */
function checkNewPassword(
  { newPassword, confirmPassword }: Record<NewPasswordField, string>,
  issue: (field: NewPasswordField, message: string) => void,
  sameAsCurrent?: string,
): void {
  if (sameAsCurrent) issue('newPassword', sameAsCurrent);
  else if (!newPassword) issue('newPassword', 'New password is required');
  else if (newPassword.length < 6) issue('newPassword', 'New password must be at least 6 characters');
  if (!confirmPassword) issue('confirmPassword', 'Please confirm your new password');
  else if (newPassword && confirmPassword !== newPassword) issue('confirmPassword', 'Passwords do not match');
}

/** The change-password form: the current password, then the new-password rules. */
export const changePasswordForm = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    const issue = (field: 'currentPassword' | NewPasswordField, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    const { currentPassword, newPassword } = values;
    if (!currentPassword) issue('currentPassword', 'Current password is required');
    const same = newPassword && currentPassword && newPassword === currentPassword;
    checkNewPassword(values, issue, same ? sameAsCurrent : undefined);
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;

/** The form of a link that sets a password (a reset or an invitation): the new-password rules. */
export const setPasswordForm = z
  .object({ newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) =>
    checkNewPassword(values, (field, message) => ctx.addIssue({ code: 'custom', path: [field], message })),
  );
export type SetPasswordForm = z.infer<typeof setPasswordForm>;

/** Asking for a link to set a new password: the answer is the same whether or not the account exists. */
export const forgotPasswordBody = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Enter your username')
    .max(254, 'Username must be at most 254 characters'),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

/** The token of a link that sets a password travels in the body, never in a URL the server sees. */
const linkToken = z.string().min(1, 'The link is incomplete').max(200, 'The link is not valid');

export const passwordLinkBody = z.object({ token: linkToken });

export const usePasswordLinkBody = z.object({
  token: linkToken,
  newPassword: changePasswordBody.shape.newPassword,
});
export type UsePasswordLinkBody = z.infer<typeof usePasswordLinkBody>;

/** What a link that sets a password is for, and whose account it sets. */
export const passwordLinkResponse = z.object({
  purpose: z.enum(['reset', 'invitation']),
  username: z.string(),
});
export type PasswordLinkResponse = z.infer<typeof passwordLinkResponse>;

/** An account's invitation to set its own password, as staff see it. */
export const passwordInvitationStatus = z.object({
  email: z.string().nullable(),
  hasPassword: z.boolean(),
  /** the latest invitation: when and by whom it was sent, until when it works, and when it was used */
  invitedAt: z.string().nullable(),
  invitedBy: z.string().nullable(),
  expiresAt: z.string().nullable(),
  joinedAt: z.string().nullable(),
  /** after a send: why the email did not go, or null when the mail server took it */
  emailError: z.string().nullable().optional(),
});
export type PasswordInvitationStatus = z.infer<typeof passwordInvitationStatus>;

/** Every account's way in, for the users table: a password, and its latest invitation. */
export const accountInvitation = z.object({
  userId: z.number().int(),
  hasPassword: z.boolean(),
  invitedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  joinedAt: z.string().nullable(),
});
export const accountInvitations = z.array(accountInvitation);
export type AccountInvitation = z.infer<typeof accountInvitation>;

export { SESSION_HINT_COOKIE, SIGNED_OUT_OF_PORTAL_ONLY } from '../sign-in';

/** Signing out: `microsoftSignOut` says the session came from Microsoft, which can be signed out of too. */
export const logoutResponse = z.object({ message: z.string(), microsoftSignOut: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponse>;
