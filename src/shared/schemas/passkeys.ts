import { z } from 'zod';

/** base64url text as WebAuthn's JSON forms carry binary values. */
const base64url = (max: number) =>
  z
    .string()
    .max(max, 'Too long')
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

export const passkeyNameField = z
  .string()
  .trim()
  .min(1, 'Give the passkey a name')
  .max(60, 'Must be at most 60 characters');

const transports = z.array(z.string().max(20)).max(10).optional();

/** What the browser's `navigator.credentials.create()` gives, in WebAuthn's JSON form. */
export const registrationResponseJson = z.object({
  id: base64url(1400).min(1),
  rawId: base64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4000).min(1),
    attestationObject: base64url(20_000).min(1),
    transports,
    authenticatorData: base64url(20_000).optional(),
    publicKey: base64url(4000).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** What the browser's `navigator.credentials.get()` gives, in WebAuthn's JSON form. */
export const authenticationResponseJson = z.object({
  id: base64url(1400).min(1),
  rawId: base64url(1400).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4000).min(1),
    authenticatorData: base64url(20_000).min(1),
    signature: base64url(2000).min(1),
    userHandle: base64url(200).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

export const addPasskeyBody = z.object({
  name: passkeyNameField,
  response: registrationResponseJson,
});
export type AddPasskeyBody = z.input<typeof addPasskeyBody>;

/** The "name your passkey" form before the browser is asked. */
export const passkeyNameForm = z.object({ name: passkeyNameField });
export type PasskeyNameForm = z.input<typeof passkeyNameForm>;

export const renamePasskeyBody = z.object({ name: passkeyNameField });

/** Which sign-in page asks: the staff page signs in staff accounts only. */
export const passkeySignInBody = z.object({
  response: authenticationResponseJson,
  page: z.enum(['facilitator', 'staff']).default('facilitator'),
});
export type PasskeySignInBody = z.input<typeof passkeySignInBody>;

/** Options for the browser's WebAuthn call, as the server made them (JSON form). */
export const passkeyOptionsResponse = z.object({ options: z.record(z.string(), z.unknown()) });

export const passkeySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const passkeyList = z.array(passkeySummary);

/** Whether passkeys can be used here at all (PUBLIC_URL set) — the sign-in pages read it. */
export const passkeyStatus = z.object({ enabled: z.boolean() });

export const signInPolicy = z.object({
  /** staff sign in only with a passkey or with Microsoft */
  staffPasskeyOrMicrosoft: z.boolean(),
  /** whether the staff member asking could turn it on: a passkey of theirs, or Microsoft works for them */
  youCanRequire: z.boolean(),
});
export type SignInPolicy = z.infer<typeof signInPolicy>;

export const signInPolicyBody = z.object({
  staffPasskeyOrMicrosoft: z.boolean({ error: 'Choose whether staff must use a passkey or Microsoft' }),
});
export type SignInPolicyBody = z.input<typeof signInPolicyBody>;
