import { z } from 'zod';
import { nonBlankText } from './common';
import { columnMapping } from './sharepoint-columns';

const optionalText = z
  .string()
  .trim()
  .max(500, 'Must be at most 500 characters')
  .optional()
  .transform((value) => value ?? '');

/** Secrets are write-only: blank means "keep the stored one". */
const secretInput = z
  .string()
  .max(2000, 'Must be at most 2000 characters')
  .optional()
  .transform((v) => v ?? '');

/** A PEM certificate or private key as pasted; blank keeps the stored one. */
export const pemInput = z
  .string()
  .max(20_000, 'Must be at most 20000 characters')
  .optional()
  .transform((v) => v?.trim() ?? '');

/** A stored client certificate as the settings page shows it (never its key). */
export const certificateDescription = z.object({
  subject: z.string(),
  /** SHA-1 thumbprint in hex, as the Entra admin centre lists it */
  thumbprint: z.string(),
  expiresAt: z.string(),
  expiresInDays: z.number().int(),
  /** fewer than 30 days left (or expired): time to upload a new one */
  expiringSoon: z.boolean(),
  expired: z.boolean(),
});
export type CertificateDescription = z.infer<typeof certificateDescription>;

export const settingsBody = z.object({
  siteUrl: z
    .string()
    .trim()
    .max(500)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'Please enter a valid SharePoint site URL'),
  availabilityListName: nonBlankText('Availability list name is required').pipe(z.string().max(255)),
  bookingsListName: nonBlankText('Bookings list name is required').pipe(z.string().max(255)),
  facilitatorListName: optionalText,
  schoolsListName: optionalText,
  tenantId: optionalText,
  clientId: optionalText,
  clientSecret: secretInput,
  username: optionalText,
  password: secretInput,
  /**
   * App-only sign-in with a certificate: the certificate and its unencrypted private key, both PEM.
   * Blank: keep the stored ones (while tenant, client and site stay the same).
   */
  clientCertificate: pemInput,
  clientCertificateKey: pemInput,
  /** true: forget the stored certificate and key */
  removeClientCertificate: z.boolean().optional(),
  /** staff's corrections to the automatic column matching; absent: keep the stored ones */
  columnMapping: columnMapping.optional(),
});
export type SettingsBody = z.input<typeof settingsBody>;

export const settingsResponse = z.object({
  siteUrl: z.string(),
  availabilityListName: z.string(),
  bookingsListName: z.string(),
  facilitatorListName: z.string(),
  schoolsListName: z.string(),
  tenantId: z.string(),
  clientId: z.string(),
  username: z.string(),
  hasPassword: z.boolean(),
  hasClientSecret: z.boolean(),
  /**
   * this save removed the stored secret: the tenant, client or site (or, for the password, the
   * username) changed and no secret was typed; a secret is only used where it was typed for
   */
  passwordCleared: z.boolean(),
  clientSecretCleared: z.boolean(),
  /** a certificate (with its private key) is stored for app-only sign-in */
  hasClientCertificate: z.boolean(),
  /** the stored certificate as the page shows it; null when none */
  clientCertificate: certificateDescription.nullable(),
  /** this save removed the stored certificate: tenant, client or site changed and none was typed */
  clientCertificateCleared: z.boolean(),
  columnMapping,
});
export type SettingsResponse = z.infer<typeof settingsResponse>;

export const testConnectionResult = z.object({ success: z.boolean(), message: z.string() });
export type TestConnectionResult = z.infer<typeof testConnectionResult>;
