import { z } from 'zod';
import { certificateDescription, pemInput } from './settings';

export { MICROSOFT_SIGN_IN_ERRORS, type MicrosoftSignInError } from '../sign-in';

/** An invitation token as it travels in a link: base64url, 43 characters for 32 random bytes. */
export const invitationToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'This invitation link is not valid. Ask staff for a new one.');

/** Which login page a sign-in started from, and so where it comes back to when it fails. */
export const MICROSOFT_SIGN_IN_PAGES = ['staff', 'facilitator'] as const;
export type MicrosoftSignInPage = (typeof MICROSOFT_SIGN_IN_PAGES)[number];

/**
 * Leaving for Microsoft: a form the login page posts (a navigation, so the portal's answer sends the
 * browser on). The invitation travels in the body: in a query string it would reach proxy access logs
 * and request log lines.
 */
export const microsoftStartBody = z.object({
  invitation: invitationToken.optional(),
  page: z.enum(MICROSOFT_SIGN_IN_PAGES, { error: 'page must be staff or facilitator' }).optional(),
});
export type MicrosoftStartBody = z.infer<typeof microsoftStartBody>;

/** What the identity provider sends back; anything else it adds is ignored. */
export const microsoftCallbackQuery = z
  .object({
    code: z.string().max(4000).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();

/**
 * Public: whether the staff login page offers Microsoft sign-in and still offers passwords, and
 * whether the facilitator login page offers it.
 */
export const microsoftSignInStatus = z.object({
  enabled: z.boolean(),
  staffPasswordSignIn: z.boolean(),
  facilitatorSignIn: z.boolean(),
});
export type MicrosoftSignInStatus = z.infer<typeof microsoftSignInStatus>;

/** A GUID as Entra writes ids: 8-4-4-4-12 hexadecimal digits. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A DNS name of at least two labels (contoso.onmicrosoft.com, contoso.org). */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function isGuid(text: string): boolean {
  return GUID.test(text);
}

/**
 * The directory: its GUID or one of its verified domains. It becomes a path segment of the sign-in
 * address, so nothing else may pass: no slashes, dots at the start, ports or `common`.
 */
export const entraTenantInput = z
  .string()
  .trim()
  .max(253, 'Must be at most 253 characters')
  .refine(
    (value) => value === '' || GUID.test(value) || DOMAIN.test(value),
    'Enter the directory (tenant) ID, a GUID such as 00000000-0000-0000-0000-000000000000, or a verified domain such as contoso.onmicrosoft.com',
  );

export const entraClientIdInput = z
  .string()
  .trim()
  .max(36, 'Enter the application (client) ID, a GUID')
  .refine((value) => value === '' || GUID.test(value), 'Enter the application (client) ID, a GUID');

/** The value of an app role as Entra allows it: printable characters without spaces. */
export const entraAppRoleInput = z
  .string()
  .trim()
  .max(120, 'Must be at most 120 characters')
  .refine(
    (value) => value === '' || /^[!-~]+$/.test(value),
    'An app role value has no spaces or accents, for example Portal.Staff',
  );

/** Where a setting comes from: the server's environment wins over what staff saved. */
export const settingSource = z.enum(['environment', 'settings']);
export type SettingSource = z.infer<typeof settingSource>;

/** The settings card: what is configured and where from. Never the client secret, only whether one is stored. */
export const microsoftSignInSettings = z.object({
  /** tenant, client, secret and PUBLIC_URL are all there: the login page offers Microsoft */
  configured: z.boolean(),
  /** where tenant, client and secret come from */
  connectionSource: settingSource,
  staffRoleSource: settingSource,
  publicUrlSet: z.boolean(),
  tenantId: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  /** the stored secret cannot be opened (APP_SECRET changed): it must be entered again */
  clientSecretUnreadable: z.boolean(),
  /** this save removed the stored secret: tenant or client changed and no secret was typed */
  clientSecretCleared: z.boolean(),
  /** a certificate and its private key are stored; used in preference to the secret (ADR 0023) */
  hasClientCertificate: z.boolean(),
  /** the stored certificate as the page shows it (never the key); null when none */
  clientCertificate: certificateDescription.nullable(),
  /** the stored private key cannot be opened (APP_SECRET changed): enter the pair again */
  clientCertificateUnreadable: z.boolean(),
  /** this save removed the stored certificate: tenant or client changed and none was typed */
  clientCertificateCleared: z.boolean(),
  redirectUri: z.string(),
  staffRole: z.string(),
  staffPasswordSignIn: z.boolean(),
  /** a first sign-in with the staff app role creates a staff account (no invitation needed) */
  createStaffFromRole: z.boolean(),
  /** facilitators linked through an invitation may sign in with Microsoft (off by default) */
  facilitatorSignIn: z.boolean(),
  linkedStaff: z.number().int(),
  youAreLinked: z.boolean(),
});
export type MicrosoftSignInSettings = z.infer<typeof microsoftSignInSettings>;

/** Secrets are write-only: blank or absent keeps the stored one (for the same tenant and client). */
const secretInput = z.string().max(2000, 'Must be at most 2000 characters');

/**
 * Saving the card. Absent fields keep what is stored (older pages sent only the password switch); an
 * empty tenant and client remove the stored configuration.
 */
export const microsoftSignInSettingsBody = z
  .object({
    staffPasswordSignIn: z.boolean({ error: 'Choose whether staff may sign in with a password' }),
    tenantId: entraTenantInput.optional(),
    clientId: entraClientIdInput.optional(),
    clientSecret: secretInput.optional(),
    /** a PEM certificate and its unencrypted private key, together; blank keeps the stored pair */
    clientCertificate: pemInput,
    clientCertificateKey: pemInput,
    /** true: forget the stored certificate and key */
    removeClientCertificate: z.boolean({ error: 'Choose whether to remove the certificate' }).optional(),
    staffRole: entraAppRoleInput.optional(),
    createStaffFromRole: z.boolean({ error: 'Choose whether to create staff accounts' }).optional(),
    facilitatorSignIn: z
      .boolean({ error: 'Choose whether facilitators may sign in with Microsoft' })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.tenantId === undefined && body.clientId === undefined) return;
    if (Boolean(body.tenantId) !== Boolean(body.clientId)) {
      const missing = body.tenantId ? 'clientId' : 'tenantId';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message:
          missing === 'clientId'
            ? 'Enter the application (client) ID too, or clear both'
            : 'Enter the directory (tenant) ID too, or clear both',
      });
    }
  });
export type MicrosoftSignInSettingsBody = z.input<typeof microsoftSignInSettingsBody>;

/** Check the typed directory against Microsoft's discovery document; nothing is saved. */
export const microsoftSignInTestBody = z.object({
  tenantId: entraTenantInput.refine((value) => value !== '', 'Enter the directory (tenant) ID'),
});
export type MicrosoftSignInTestBody = z.infer<typeof microsoftSignInTestBody>;

export const microsoftSignInTestResult = z.object({ success: z.boolean(), message: z.string() });
export type MicrosoftSignInTestResult = z.infer<typeof microsoftSignInTestResult>;

/**
 * Making an invitation. An account already linked to a Microsoft identity is only re-invited with
 * `replaceIdentity`: the invitation then replaces that identity when used, and its owner is told.
 */
export const microsoftInvitationBody = z.preprocess(
  // no body at all is an invitation that replaces nothing
  (body) => body ?? {},
  z.object({ replaceIdentity: z.boolean({ error: 'replaceIdentity must be true or false' }).default(false) }),
);
export type MicrosoftInvitationBody = z.input<typeof microsoftInvitationBody>;

export const microsoftInvitation = z.object({
  link: z.string(),
  expiresAt: z.string(),
});
export type MicrosoftInvitation = z.infer<typeof microsoftInvitation>;

/** Which accounts are linked to a Microsoft identity (the Users page marks them). */
export const microsoftLinkedAccounts = z.object({
  users: z.array(
    z.object({
      userId: z.number().int(),
      /** the last Microsoft sign-in, null when the link was made but never used since */
      lastSignInAt: z.string().nullable(),
    }),
  ),
});
export type MicrosoftLinkedAccounts = z.infer<typeof microsoftLinkedAccounts>;
