import { z } from 'zod';
import { SAFEGUARDING_STATES } from '../safeguarding';
import { hasInvisibleCharacters, INVISIBLE_IN_USERNAME_MESSAGE } from '../username';
import { pageCursor, pageLimit } from './paging';

export const ROLES = ['facilitator', 'staff'] as const;
export const DEFAULT_ROLE = 'facilitator';

/** The user as any response shows it: never a password or hash. */
export const publicUser = z.object({
  id: z.number().int(),
  username: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  freelancerId: z.string().nullable(),
  role: z.string(),
  area: z.string().nullable(),
  lastAvailabilityUpdatedAt: z.string().nullable(),
  /** goes up at every change; an edit sends the version it was made on (stale: 409) */
  version: z.number().int(),
  /** when staff deactivated the account (a leaver); null while it is active */
  deactivatedAt: z.string().nullable(),
  /** when the retention schedule anonymised the leaver; it can no longer be reactivated */
  anonymisedAt: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** A created account; after `sendInvitation`, why the invitation email did not go (null: it went). */
export const createdUser = publicUser.extend({ invitationEmailError: z.string().nullable().optional() });
export type CreatedUser = z.infer<typeof createdUser>;
/**
 * `GET /api/staff/users`: with none of these, every account (the list the spec names); with any, one
 * page of accounts by name (the display name, else the username, lower-cased), then id, from `cursor`
 * on, `limit` of them (default PAGE_SIZE), those whose name, username, email, freelancer ID or area
 * holds `search`, and with `safeguarding`, only the facilitators in that safeguarding state today.
 */
export const staffUsersQuery = z.object({
  cursor: pageCursor,
  limit: pageLimit.optional(),
  search: z.string().max(200, 'Search is at most 200 characters').optional(),
  safeguarding: z
    .enum(SAFEGUARDING_STATES, { error: `Safeguarding must be one of ${SAFEGUARDING_STATES.join(', ')}` })
    .optional(),
});
export type StaffUsersQuery = z.input<typeof staffUsersQuery>;

export const usersPage = z.object({
  rows: z.array(publicUser),
  /** where the next page starts; null on the last page */
  nextCursor: z.string().nullable(),
  /** accounts the search and filter find, every page together */
  matching: z.number().int(),
  /** every account */
  total: z.number().int(),
  /** every account's area (trimmed, each once, A-Z): what the area field suggests while typing */
  areas: z.array(z.string()),
});
export type UsersPage = z.infer<typeof usersPage>;

/** A text field that may be blank. */
const textField = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

const optionalText = (max: number) =>
  textField(max)
    .nullish()
    .transform((value) => (value ? value : null));

/** freelancerId may arrive as a number on read (a SharePoint number column); we store text. */
const freelancerIdInput = z
  .union([z.string(), z.number().int().nonnegative()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : String(value).trim() || null))
  .refine((value) => value === null || value.length <= 100, 'Must be at most 100 characters');

export const usernameField = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(254, 'Username must be at most 254 characters')
  .refine((value) => !hasInvisibleCharacters(value), INVISIBLE_IN_USERNAME_MESSAGE);

export const passwordField = z
  .string()
  .min(6, 'Password must be at least 6 characters')
  .max(256, 'Password must be at most 256 characters');

const roleField = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[a-z][a-z0-9_-]*$/, 'Role must be lower-case letters, digits, - or _');

export const INVITATION_NEEDS_EMAIL = 'Enter an email address: the invitation goes there';

/**
 * Create: with a password, or (`sendInvitation`) with none, the owner being emailed a link to set
 * their own; the account then has no usable password until the link is used.
 */
export const createUserBody = z
  .object({
    username: usernameField,
    password: passwordField.optional(),
    sendInvitation: z.boolean().default(false),
    displayName: optionalText(200),
    email: optionalText(254),
    freelancerId: freelancerIdInput,
    area: optionalText(100),
    role: roleField.default(DEFAULT_ROLE),
  })
  .superRefine((body, issues) => {
    if (body.sendInvitation) {
      if (!body.email) issues.addIssue({ code: 'custom', path: ['email'], message: INVITATION_NEEDS_EMAIL });
      if (body.password !== undefined)
        issues.addIssue({
          code: 'custom',
          path: ['password'],
          message: 'Leave the password out: the invitation lets them choose one',
        });
    } else if (body.password === undefined) {
      issues.addIssue({ code: 'custom', path: ['password'], message: 'Password is required' });
    }
  });
export type CreateUserBody = z.input<typeof createUserBody>;

/** On edit, a field left out keeps its stored value; `null` or blank clears it. */
const keptText = (max: number) =>
  textField(max)
    .nullish()
    .transform((value) => (value === undefined ? undefined : value ? value : null));

const keptFreelancerId = z
  .union([z.string(), z.number().int().nonnegative()])
  .nullish()
  .transform((value) =>
    value === undefined ? undefined : value === null ? null : String(value).trim() || null,
  )
  .refine((value) => !value || value.length <= 100, 'Must be at most 100 characters');

/** On edit, a blank password keeps the current one. */
const keptPassword = z
  .string()
  .transform((value) => (value ? value : undefined))
  .pipe(passwordField.optional());

export const STALE_ACCOUNT_MESSAGE = 'This account was changed by someone else. Reload to see the changes.';

/**
 * Edit: only the fields sent change; every field left out keeps its stored value (a blank password
 * too). `version` is the one the editor loaded: an edit made on an older version is refused, so a
 * routine edit cannot undo a change someone else made meanwhile.
 */
export const updateUserBody = z.object({
  version: z.number({ error: 'Reload the account before editing it' }).int().nonnegative(),
  username: usernameField.optional(),
  password: keptPassword.optional(),
  displayName: keptText(200),
  email: keptText(254),
  freelancerId: keptFreelancerId,
  area: keptText(100),
  role: roleField.optional(),
});
export type UpdateUserBody = z.input<typeof updateUserBody>;

/**
 * The account dialog as typed, every value a string: the same rules the server parses in
 * `createUserBody` (and, with a blank password kept, `updateUserBody`).
 */
const userFormFields = z.object({
  username: usernameField,
  password: passwordField,
  displayName: textField(200),
  email: textField(254),
  freelancerId: textField(100),
  area: textField(100),
  /** create only: email an invitation instead of setting a password (the password is then ignored) */
  sendInvitation: z.boolean(),
});
export const createUserForm = userFormFields.extend({ password: z.string() }).superRefine((form, issues) => {
  if (form.sendInvitation) {
    if (!form.email.trim())
      issues.addIssue({ code: 'custom', path: ['email'], message: INVITATION_NEEDS_EMAIL });
    return;
  }
  const password = passwordField.safeParse(form.password);
  if (!password.success)
    issues.addIssue({ code: 'custom', path: ['password'], message: password.error.issues[0]!.message });
});
export const editUserForm = userFormFields.extend({ password: keptPassword });
export type UserFormValues = z.input<typeof userFormFields>;
