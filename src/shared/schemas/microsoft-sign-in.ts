import { z } from 'zod';

/**
 * Why a Microsoft sign-in did not end in a session. The callback sends the browser back to the staff
 * login page with one of these; the page says what happened and what to do.
 */
export const MICROSOFT_SIGN_IN_ERRORS = [
  'not_configured',
  'cancelled',
  'expired_request',
  'wrong_tenant',
  'wrong_issuer',
  'no_invitation',
  'invitation_invalid',
  'missing_role',
  'clock_skew',
  'provider_unreachable',
  'failed',
] as const;
export type MicrosoftSignInError = (typeof MICROSOFT_SIGN_IN_ERRORS)[number];

/** An invitation token as it travels in a link: base64url, 43 characters for 32 random bytes. */
export const invitationToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'This invitation link is not valid. Ask staff for a new one.');

export const microsoftStartQuery = z.object({
  invitation: invitationToken.optional(),
});
export type MicrosoftStartQuery = z.infer<typeof microsoftStartQuery>;

/** What the identity provider sends back; anything else it adds is ignored. */
export const microsoftCallbackQuery = z
  .object({
    code: z.string().max(4000).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();

/** Public: whether the staff login page offers Microsoft sign-in and still offers passwords. */
export const microsoftSignInStatus = z.object({
  enabled: z.boolean(),
  staffPasswordSignIn: z.boolean(),
});
export type MicrosoftSignInStatus = z.infer<typeof microsoftSignInStatus>;

/** The settings card: configuration comes from the environment and is shown, never the secret. */
export const microsoftSignInSettings = z.object({
  configured: z.boolean(),
  tenantId: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  staffRole: z.string(),
  staffPasswordSignIn: z.boolean(),
  linkedStaff: z.number().int(),
  youAreLinked: z.boolean(),
});
export type MicrosoftSignInSettings = z.infer<typeof microsoftSignInSettings>;

export const microsoftSignInSettingsBody = z.object({
  staffPasswordSignIn: z.boolean({ error: 'Choose whether staff may sign in with a password' }),
});
export type MicrosoftSignInSettingsBody = z.infer<typeof microsoftSignInSettingsBody>;

export const microsoftInvitation = z.object({
  link: z.string(),
  expiresAt: z.string(),
});
export type MicrosoftInvitation = z.infer<typeof microsoftInvitation>;
