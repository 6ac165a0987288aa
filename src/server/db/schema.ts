import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ColumnMapping } from '../../shared/schemas/sharepoint-columns';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    // canonicalUsername(username) and usernameSkeleton(username) (src/shared/username.ts): the only
    // forms sign-in, the throttle and uniqueness compare. The skeleton is null only for an account
    // that looked like another before look-alikes were refused.
    usernameCanonical: text('username_canonical').notNull(),
    usernameSkeleton: text('username_skeleton'),
    // null: the account has no usable password yet (e.g. imported from SharePoint)
    passwordHash: text('password_hash'),
    displayName: text('display_name'),
    email: text('email'),
    freelancerId: text('freelancer_id'),
    role: text('role').notNull().default('facilitator'),
    area: text('area'),
    lastAvailabilityUpdatedAt: timestamp('last_availability_updated_at', {
      withTimezone: true,
      mode: 'date',
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** goes up by one at every change of the account: edits made on an older one are refused */
    version: integer('version').notNull().default(1),
    // a leaver: set when staff deactivate the account (no sign-in, feed, offers or reminders), cleared
    // when they reactivate it; the retention schedule counts its periods from here
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true, mode: 'date' }),
    // set when the retention schedule anonymised a leaver: the account can no longer be reactivated
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('users_username_canonical_key').on(t.usernameCanonical),
    uniqueIndex('users_username_skeleton_key').on(t.usernameSkeleton),
    index('users_freelancer_id_idx').on(t.freelancerId),
    index('users_role_idx').on(t.role),
    // the staff grid's order (modules/staff/service.ts): a page is read from here, from its cursor on
    index('users_grid_order_idx')
      .on(sql`lower(coalesce(nullif(btrim(${t.displayName}), ''), ${t.username}))`, t.id)
      .where(sql`${t.role} <> 'staff'`),
    check('users_role_format', sql`${t.role} ~ '^[a-z][a-z0-9_-]*$'`),
  ],
);

export const availability = pgTable(
  'availability',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    startTime: text('start_time').notNull().default(''),
    endTime: text('end_time').notNull().default(''),
    notes: text('notes').notNull().default(''),
    syncedToSharePoint: boolean('synced_to_sharepoint').notNull().default(false),
    sharePointItemId: text('sharepoint_item_id'),
    updatedAt: updatedAt(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('availability_user_date_key').on(t.userId, t.date),
    index('availability_date_idx').on(t.date),
    check('availability_status_check', sql`${t.status} in ('available', 'limited', 'unavailable')`),
    check('availability_start_time_format', sql`${t.startTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^$'`),
    check('availability_end_time_format', sql`${t.endTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$|^$'`),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    // the freelancer ID as SharePoint gave it, so an unlinked booking can be linked later
    freelancerId: text('freelancer_id'),
    title: text('title').notNull().default(''),
    date: date('date', { mode: 'string' }).notNull(),
    startTime: text('start_time'),
    endTime: text('end_time'),
    location: text('location'),
    sharePointId: text('sharepoint_id').notNull(),
    schoolId: text('school_id'),
    schoolName: text('school_name'),
    schoolAddress: text('school_address'),
    schoolPostcode: text('school_postcode'),
    program: text('program'),
    timeSlot: text('time_slot'),
    deliveryType: text('delivery_type'),
    year: text('year'),
    // the item's eTag as the last refresh read it: a write-back sent with If-Match fails when the
    // item changed in SharePoint since the portal last saw it
    eTag: text('etag'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bookings_sharepoint_id_key').on(t.sharePointId),
    index('bookings_user_date_idx').on(t.userId, t.date),
    index('bookings_date_idx').on(t.date),
  ],
);

export const staffNotes = pgTable(
  'staff_notes',
  {
    id: serial('id').primaryKey(),
    facilitatorId: integer('facilitator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    note: text('note').notNull(),
    priority: text('priority').notNull().default('normal'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('staff_notes_facilitator_date_idx').on(t.facilitatorId, t.date),
    index('staff_notes_date_idx').on(t.date),
    check('staff_notes_priority_check', sql`${t.priority} in ('normal', 'high', 'urgent')`),
    check('staff_notes_note_not_blank', sql`length(trim(${t.note})) > 0`),
  ],
);

export const sharepointSettings = pgTable(
  'sharepoint_settings',
  {
    // a single row: id is always 1
    id: integer('id').primaryKey().default(1),
    siteUrl: text('site_url').notNull(),
    availabilityListName: text('availability_list_name').notNull(),
    bookingsListName: text('bookings_list_name').notNull(),
    facilitatorListName: text('facilitator_list_name').notNull().default(''),
    schoolsListName: text('schools_list_name').notNull().default(''),
    tenantId: text('tenant_id').notNull().default(''),
    clientId: text('client_id').notNull().default(''),
    // AES-256-GCM ciphertexts (see server/crypto.ts); null when not set
    clientSecretEncrypted: text('client_secret_encrypted'),
    username: text('username').notNull().default(''),
    passwordEncrypted: text('password_encrypted'),
    // app-only sign-in with a certificate (ADR 0017): the PEM certificate (public, shown as its
    // subject, thumbprint and expiry) and its private key, sealed like the client secret
    clientCertificate: text('client_certificate'),
    clientCertificateKeyEncrypted: text('client_certificate_key_encrypted'),
    // per-list delta links, keyed by list name
    deltaLinks: jsonb('delta_links').$type<Record<string, string>>().notNull().default({}),
    // staff's corrections to the automatic column matching (shared/schemas/sharepoint-columns.ts)
    columnMapping: jsonb('column_mapping').$type<ColumnMapping>().notNull().default({}),
    updatedAt: updatedAt(),
  },
  (t) => [check('sharepoint_settings_single_row', sql`${t.id} = 1`)],
);

export const sessions = pgTable(
  'sessions',
  {
    // HMAC of the cookie token: a database leak does not give usable cookies
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    // opened by a Microsoft sign-in: signing out then offers to sign out of Microsoft too
    signedInWithMicrosoft: boolean('signed_in_with_microsoft').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Failed-login counters per account, per address and per account and address; shared by every instance. */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
    /** the account a row counts for (none for an address row), so staff can clear them all */
    account: text('account'),
  },
  (t) => [
    index('login_throttle_account_idx').on(t.account),
    index('login_throttle_window_started_at_idx').on(t.windowStartedAt),
  ],
);

/** Request budgets (fixed windows) shared by every instance: one row per budget and caller. */
export const requestLimits = pgTable(
  'request_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('request_limits_resets_at_idx').on(t.resetsAt)],
);

/**
 * The Availability list's items by their key (`{FreelancerID}|{yyyy-MM-dd}`), learned from the list's
 * change feed (sharepoint/availability-items.ts): how delivery finds a day's item without a filtered
 * look-up, which SharePoint refuses on a big list whose key column is not indexed. One list at a
 * time; the feed's position is kept with the other delta links in sharepoint_settings.
 */
export const sharepointAvailabilityItems = pgTable(
  'sharepoint_availability_items',
  {
    listId: text('list_id').notNull(),
    key: text('key').notNull(),
    itemId: text('item_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.key] }),
    index('sharepoint_availability_items_item_idx').on(t.listId, t.itemId),
  ],
);

/** Availability changes waiting to be written to SharePoint; committed with the change itself. */
export const syncOutbox = pgTable(
  'sync_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sync_outbox_next_attempt_idx').on(t.nextAttemptAt),
    index('sync_outbox_user_date_idx').on(t.userId, t.date),
  ],
);

/**
 * Offers of open sessions to facilitators (modules/offers). First acceptance wins by construction:
 * at most one accepted offer per booking (a unique partial index), and at most one live offer per
 * person and booking.
 */
export const offers = pgTable(
  'offers',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('sent'),
    message: text('message').notNull().default(''),
    replyBy: timestamp('reply_by', { withTimezone: true, mode: 'date' }).notNull(),
    // 'unavailable' | 'booked': staff confirmed the offer although the facilitator did not look free
    override: text('override'),
    autoNext: boolean('auto_next').notNull().default(false),
    offeredBy: integer('offered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }),
    respondedAt: timestamp('responded_at', { withTimezone: true, mode: 'date' }),
    declineReason: text('decline_reason').notNull().default(''),
    endedReason: text('ended_reason'),
    // the id of the one email link still usable; null once used or when the offer ended
    linkNonce: text('link_nonce'),
    emailedAt: timestamp('emailed_at', { withTimezone: true, mode: 'date' }),
    emailError: text('email_error'),
    // 'pending' | 'done' | 'undone': where an acceptance stands with SharePoint
    writeBack: text('write_back'),
    // set only when a chosen facilitator's safeguarding checks did not allow sending on the session's
    // date and staff gave a reason: the state they had ('expired' | 'missing') and that reason
    safeguardingState: text('safeguarding_state'),
    safeguardingOverrideReason: text('safeguarding_override_reason'),
  },
  (t) => [
    uniqueIndex('offers_one_accepted_per_booking').on(t.bookingId).where(sql`${t.state} = 'accepted'`),
    uniqueIndex('offers_one_live_per_person')
      .on(t.bookingId, t.userId)
      .where(sql`${t.state} in ('sent', 'seen')`),
    index('offers_user_idx').on(t.userId, t.id),
    index('offers_live_reply_by_idx').on(t.replyBy).where(sql`${t.state} in ('sent', 'seen')`),
    check(
      'offers_state_check',
      sql`${t.state} in ('sent', 'seen', 'accepted', 'declined', 'expired', 'withdrawn')`,
    ),
  ],
);

/**
 * Writes to the SharePoint Bookings list waiting for delivery: a new session (`create`, its columns
 * in `fields`) or an accepted offer's freelancer (`assign`). Committed with the change itself, like
 * the availability outbox.
 */
export const bookingOutbox = pgTable(
  'booking_outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    offerId: integer('offer_id').references(() => offers.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').$type<Record<string, string>>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('booking_outbox_next_attempt_idx').on(t.nextAttemptAt),
    check('booking_outbox_kind_check', sql`${t.kind} in ('create', 'assign')`),
  ],
);

/** What the scheduler last did, so every instance reports the same status. */
export const schedulerState = pgTable('scheduler_state', {
  name: text('name').primaryKey(),
  isUpdating: boolean('is_updating').notNull().default(false),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
  lastResult: jsonb('last_result'),
  lastError: text('last_error'),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
});

/**
 * A counter per list and facilitator, bumped by triggers on every statement that changes the list
 * (drizzle/0004_list_versions.sql). List answers' ETags are made from it (http/list-answers.ts).
 * `user_id` is 0 for lists versioned as a whole (bookings, staff notes). No foreign key: a deleted facilitator's
 * counter must stay, or the sum over all facilitators could repeat an earlier value.
 */
export const listVersions = pgTable(
  'list_versions',
  {
    list: text('list').notNull(),
    userId: integer('user_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.list, t.userId] })],
);

/**
 * How many facilitators (every account but staff) each area has, kept by a trigger on `users`
 * (drizzle/0033_list_totals.sql): the staff grid's area choices and its counts without a pass over
 * the accounts. `area` is the grid's area key: the area trimmed, or GRID_NO_AREA for none. Rows at 0
 * stay; readers skip them. ADR 97.
 */
export const facilitatorAreas = pgTable('facilitator_areas', {
  area: text('area').primaryKey(),
  facilitators: integer('facilitators').notNull().default(0),
});

/** Generated secrets live here when APP_SECRET is not given and DATA_DIR is not used (PostgreSQL). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// --- patterns, who is free, completeness ---

// --- reminders ---

/**
 * Email (SMTP) settings and the automatic availability reminder; a single row (id 1). The password is
 * an AES-256-GCM ciphertext (server/crypto.ts), like the SharePoint secrets; null when none is stored.
 */
export const reminderSettings = pgTable(
  'reminder_settings',
  {
    id: integer('id').primaryKey().default(1),
    smtpHost: text('smtp_host').notNull().default(''),
    smtpPort: integer('smtp_port').notNull().default(587),
    smtpSecurity: text('smtp_security').notNull().default('starttls'),
    smtpUsername: text('smtp_username').notNull().default(''),
    smtpPasswordEncrypted: text('smtp_password_encrypted'),
    fromAddress: text('from_address').notNull().default(''),
    autoEnabled: boolean('auto_enabled').notNull().default(false),
    autoDay: integer('auto_day').notNull().default(1),
    // which month the automatic reminder is about: the one after the day it runs, or that day's own
    autoMonth: text('auto_month').notNull().default('next'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('reminder_settings_single_row', sql`${t.id} = 1`),
    check('reminder_settings_port_check', sql`${t.smtpPort} between 1 and 65535`),
    check('reminder_settings_security_check', sql`${t.smtpSecurity} in ('none', 'starttls', 'tls')`),
    check('reminder_settings_auto_day_check', sql`${t.autoDay} between 1 and 28`),
    check('reminder_settings_auto_month_check', sql`${t.autoMonth} in ('next', 'current')`),
  ],
);

/**
 * One row per reminder an SMTP server accepted. The unique key is the once-a-day rule: one reminder
 * per facilitator per day, whatever month it was about (`sent_on` is the day in ORG_TIMEZONE). Rows
 * from before that rule (it was once a day per month) that would break it are kept, marked
 * `extra_same_day`, outside the key (drizzle/0005_reminders_once_a_day.sql).
 */
export const reminderSends = pgTable(
  'reminder_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    email: text('email').notNull(),
    trigger: text('trigger').notNull(),
    // the staff member who sent it; null for the automatic reminder (or a deleted account)
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    extraSameDay: boolean('extra_same_day').notNull().default(false),
  },
  (t) => [
    uniqueIndex('reminder_sends_user_day_key').on(t.userId, t.sentOn).where(sql`not ${t.extraSameDay}`),
    index('reminder_sends_month_idx').on(t.month),
    check('reminder_sends_month_format', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('reminder_sends_trigger_check', sql`${t.trigger} in ('staff', 'automatic')`),
  ],
);

// --- calendar feed, exports ---

/**
 * One personal calendar feed per user (docs/decisions/0007-calendar-feed-tokens.md). The URL's token
 * is never stored as such: `token_hash` (SHA-256, hex) finds the feed, `token_encrypted` (AES-256-GCM
 * under a key derived from APP_SECRET) lets the owner see the URL again. No row: the feed is off.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    tokenEncrypted: text('token_encrypted').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_key').on(t.tokenHash)],
);

// --- history ---

/**
 * Every change to availability, staff notes, accounts and settings, written in the transaction of the
 * change itself (modules/history/record.ts). Append-only: triggers refuse UPDATE, DELETE and TRUNCATE
 * (drizzle/0003_history.sql). No foreign keys on purpose: deleting an account must neither delete
 * nor rewrite its history, so the ids stay (serial ids are never reused) beside a snapshot of the
 * names as they were when the change was made.
 */
export const changeHistory = pgTable(
  'change_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    entity: text('entity').notNull(),
    action: text('action').notNull(),
    // the facilitator (or account) the change is about; null for settings
    subjectUserId: integer('subject_user_id'),
    subjectName: text('subject_name'),
    date: date('date', { mode: 'string' }),
    // null: no signed-in person made it (a scheduled SharePoint refresh)
    actorId: integer('actor_id'),
    actorName: text('actor_name'),
    via: text('via').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('change_history_subject_idx').on(t.subjectUserId, t.id),
    index('change_history_subject_date_idx').on(t.subjectUserId, t.date),
    check(
      'change_history_entity_check',
      sql`${t.entity} in ('availability', 'note', 'account', 'settings', 'offer', 'session')`,
    ),
    check('change_history_action_check', sql`${t.action} in ('create', 'update', 'delete')`),
    check(
      'change_history_via_check',
      sql`${t.via} in ('facilitator', 'staff', 'bulk', 'pattern', 'sharepoint', 'email', 'automatic')`,
    ),
  ],
);

/**
 * A Microsoft (Entra ID) identity linked to a portal account. A person is the issuer, tenant and object
 * id together, never an email address: those can be changed by whoever manages the directory entry.
 */
export const microsoftIdentities = pgTable(
  'microsoft_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    tenantId: text('tenant_id').notNull(),
    objectId: text('object_id').notNull(),
    // the account's sign-in name as the last token gave it (for people reading the history; never
    // used to find the identity, which is issuer, tenant and object id)
    signInName: text('sign_in_name'),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('microsoft_identities_subject_key').on(t.issuer, t.tenantId, t.objectId),
    uniqueIndex('microsoft_identities_user_key').on(t.userId),
  ],
);

/** A single-use link that lets the next Microsoft sign-in through it claim one account. */
export const microsoftInvitations = pgTable(
  'microsoft_invitations',
  {
    // sha256 of the token in the link: a copy of the table claims no account
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    // staff chose to replace the identity the account is linked to: without it, an account linked
    // since the invitation was made is not taken over by whoever uses the link
    replacesIdentity: boolean('replaces_identity').notNull().default(false),
  },
  (t) => [uniqueIndex('microsoft_invitations_user_key').on(t.userId)],
);

/**
 * A sign-in under way: state, nonce, PKCE verifier and invitation, sealed with a key only the starting
 * browser's cookie can rebuild. Deleted when the answer comes back, so a state works once.
 */
export const microsoftSignInRequests = pgTable(
  'microsoft_sign_in_requests',
  {
    stateHash: text('state_hash').primaryKey(),
    sealed: text('sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('microsoft_sign_in_requests_expires_idx').on(t.expiresAt)],
);

export const microsoftSignInSettings = pgTable(
  'microsoft_sign_in_settings',
  {
    // a single row: id is always 1
    id: integer('id').primaryKey().default(1),
    staffPasswordSignIn: boolean('staff_password_sign_in').notNull().default(true),
    // Entered on the settings page; the environment's ENTRA_* variables win over these.
    tenantId: text('tenant_id').notNull().default(''),
    clientId: text('client_id').notNull().default(''),
    // sealed with the tenant and client as associated data (ADR 0010): it opens for nothing else
    clientSecretEncrypted: text('client_secret_encrypted'),
    // a certificate instead of the secret (ADR 0023): the PEM certificate is public; its private key
    // is sealed like the secret, bound to the same tenant and client
    clientCertificate: text('client_certificate'),
    clientCertificateKeyEncrypted: text('client_certificate_key_encrypted'),
    staffRole: text('staff_role').notNull().default(''),
    // a first Microsoft sign-in carrying the staff app role gets a staff account without an invitation
    createStaffFromRole: boolean('create_staff_from_role').notNull().default(false),
    // facilitators linked through an invitation may sign in with Microsoft too (ADR 0024)
    facilitatorSignIn: boolean('facilitator_sign_in').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('microsoft_sign_in_settings_single_row', sql`${t.id} = 1`)],
);

// --- safeguarding ---

/**
 * How long safeguarding checks count and which other checks the organisation requires; a single row
 * (id 1). No row: the defaults in shared/safeguarding.ts (DEFAULT_SAFEGUARDING_POLICY).
 */
export const safeguardingPolicy = pgTable(
  'safeguarding_policy',
  {
    id: integer('id').primaryKey().default(1),
    dbsMonths: integer('dbs_months').notNull(),
    updateServiceMonths: integer('update_service_months').notNull(),
    warningDays: integer('warning_days').notNull(),
    checkTypes: jsonb('check_types').$type<string[]>().notNull().default([]),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('safeguarding_policy_single_row', sql`${t.id} = 1`),
    check('safeguarding_policy_dbs_months_check', sql`${t.dbsMonths} between 1 and 120`),
    check('safeguarding_policy_update_months_check', sql`${t.updateServiceMonths} between 1 and 120`),
    check('safeguarding_policy_warning_days_check', sql`${t.warningDays} between 0 and 365`),
  ],
);

/**
 * The policy as it stood from each day on: a day is judged by the version with the latest
 * `effective_from` on or before it, and a day before every version by the defaults. Saving the
 * policy writes today's version (a second save the same day replaces it), so a change never rewrites
 * the record of a day before it. ADR 77.
 */
export const safeguardingPolicyVersions = pgTable(
  'safeguarding_policy_versions',
  {
    effectiveFrom: date('effective_from', { mode: 'string' }).primaryKey(),
    dbsMonths: integer('dbs_months').notNull(),
    updateServiceMonths: integer('update_service_months').notNull(),
    warningDays: integer('warning_days').notNull(),
    checkTypes: jsonb('check_types').$type<string[]>().notNull().default([]),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('safeguarding_policy_versions_dbs_months_check', sql`${t.dbsMonths} between 1 and 120`),
    check(
      'safeguarding_policy_versions_update_months_check',
      sql`${t.updateServiceMonths} between 1 and 120`,
    ),
    check('safeguarding_policy_versions_warning_days_check', sql`${t.warningDays} between 0 and 365`),
  ],
);

/**
 * One facilitator's safeguarding records, kept by staff: the DBS check (all its columns null when none
 * is recorded) and the organisation's other checks. The certificate number is personal data: only
 * staff and the person see it whole (lists, exports and the history show its last four digits).
 */
export const safeguardingRecords = pgTable(
  'safeguarding_records',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    dbsCertificateNumber: text('dbs_certificate_number'),
    // the number's last four digits only, once the retention schedule no longer keeps it whole
    dbsCertificateLastFour: text('dbs_certificate_last_four'),
    dbsIssueDate: date('dbs_issue_date', { mode: 'string' }),
    dbsEnhancedWithBarredList: boolean('dbs_enhanced_with_barred_list').notNull().default(false),
    dbsOnUpdateService: boolean('dbs_on_update_service').notNull().default(false),
    dbsStatusCheckedOn: date('dbs_status_checked_on', { mode: 'string' }),
    dbsCheckedBy: text('dbs_checked_by'),
    otherChecks: jsonb('other_checks').$type<{ type: string; validUntil: string }[]>().notNull().default([]),
    updatedAt: updatedAt(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    check('safeguarding_records_certificate_format', sql`${t.dbsCertificateNumber} ~ '^[0-9]{12}$'`),
    check('safeguarding_records_last_four_format', sql`${t.dbsCertificateLastFour} ~ '^[0-9]{4}$'`),
    check(
      'safeguarding_records_dbs_complete',
      sql`(coalesce(${t.dbsCertificateNumber}, ${t.dbsCertificateLastFour}) is null) = (${t.dbsIssueDate} is null)`,
    ),
    check(
      'safeguarding_records_number_or_last_four',
      sql`${t.dbsCertificateNumber} is null or ${t.dbsCertificateLastFour} is null`,
    ),
  ],
);

/**
 * Safeguarding emails an SMTP server accepted: `expiry` to a facilitator, `digest` to a staff member.
 * The unique key is the once-a-day rule per person and kind (`sent_on` is the day in ORG_TIMEZONE).
 */
export const safeguardingReminderSends = pgTable(
  'safeguarding_reminder_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    email: text('email').notNull(),
  },
  (t) => [
    uniqueIndex('safeguarding_reminder_sends_user_kind_day_key').on(t.userId, t.kind, t.sentOn),
    check('safeguarding_reminder_sends_kind_check', sql`${t.kind} in ('expiry', 'digest')`),
  ],
);

// --- links that set a password ---

/**
 * A single-use link, sent to an account's own email, where its owner sets a password: a reset asked
 * for on the sign-in pages, or an invitation staff send. Only the SHA-256 of the link's token is
 * kept. `bound_to` is a hash of the account's password hash and email when the link was made: a link
 * stops working once either changes, whoever changed them.
 */
export const passwordLinks = pgTable(
  'password_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    boundTo: text('bound_to').notNull(),
    /** the staff member who sent an invitation; null for a reset */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('password_links_user_idx').on(t.userId, t.createdAt),
    check('password_links_purpose_check', sql`${t.purpose} in ('reset', 'invitation')`),
  ],
);

/**
 * Passkeys (WebAuthn credentials) that sign an account in. The relying party is PUBLIC_URL's host: a
 * passkey made for another host never signs in here.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    // the credential id, base64url, as the authenticator made it
    credentialId: text('credential_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // the COSE public key, base64url: public, it verifies signatures and signs nothing
    publicKey: text('public_key').notNull(),
    // the signature counter last seen; an assertion must go past it (0 and 0: the authenticator keeps none)
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    // the relying party id it was made for (PUBLIC_URL's host then)
    rpId: text('rp_id').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges under way, shared by every instance: each works once and for a few minutes.
 * Only the challenge's SHA-256 is kept; a registration's is tied to the account that asked.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
    check('webauthn_challenges_purpose_check', sql`${t.purpose} in ('registration', 'authentication')`),
  ],
);

/** How staff may sign in, beyond Microsoft's own settings: a single row, id 1. */
export const signInPolicy = pgTable('sign_in_policy', {
  id: integer('id').primaryKey().default(1),
  // staff sign in only with a passkey or with Microsoft: their password sign-in is refused
  staffPasskeyOrMicrosoft: boolean('staff_passkey_or_microsoft').notNull().default(false),
  updatedAt: updatedAt(),
});

// --- notifications ---

/**
 * One browser's push subscription (one per device): the push service's endpoint and the keys its
 * messages are encrypted for. A browser that subscribes again replaces its row; an endpoint the push
 * service calls gone (404, 410) is deleted, with whatever was queued for it.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * Pushes waiting for delivery, one row per event and device, shared by every instance and claimed with
 * the outboxes' lease (sharepoint/outbox-lease.ts). A row waits in `next_attempt_at` for the end of its
 * person's quiet hours; `expires_at` drops a push that would arrive too late to matter.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    link: text('link').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('push_outbox_next_attempt_idx').on(t.nextAttemptAt),
    index('push_outbox_subscription_idx').on(t.subscriptionId),
  ],
);

/** How a person hears of each kind of event; a kind with no row has its default (notifications/kinds.ts). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('notification_preferences_channel_check', sql`${t.channel} in ('push', 'email', 'both', 'none')`),
  ],
);

/** A person's quiet hours, wall-clock 'HH:MM' in ORG_TIMEZONE; may run past midnight (22:00-07:00). */
export const notificationQuietHours = pgTable('notification_quiet_hours', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  startsAt: text('starts_at').notNull(),
  endsAt: text('ends_at').notNull(),
});
// --- data protection: the viewing log, records as they stood, photos, the school's assurance ---

/**
 * One row each time a whole certificate number left the portal: an answer that carried it or an
 * export that held it (modules/data-protection/viewing-log.ts). Who saw whose, when and through what.
 * No foreign keys, like the history: deleting an account must not delete the record of who saw its
 * certificate, so the viewer's name is kept as it was.
 */
export const certificateViews = pgTable(
  'certificate_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    subjectUserId: integer('subject_user_id').notNull(),
    viewerId: integer('viewer_id'),
    viewerName: text('viewer_name').notNull(),
    via: text('via').notNull(),
  },
  (t) => [
    index('certificate_views_subject_idx').on(t.subjectUserId, t.id),
    index('certificate_views_viewer_idx').on(t.viewerId),
    index('certificate_views_at_idx').on(t.at),
  ],
);

/**
 * Each state a facilitator's safeguarding records have been in, added whenever they are saved:
 * what the school's assurance reads to show the checks as they stood on a session's day. Only the
 * certificate's last four digits are kept here; the whole number lives in safeguarding_records alone.
 * `recorded_on` is the day (in ORG_TIMEZONE) the state was saved.
 */
export const safeguardingRecordVersions = pgTable(
  'safeguarding_record_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    recordedOn: date('recorded_on', { mode: 'string' }).notNull(),
    dbsCertificateLast4: text('dbs_certificate_last4'),
    dbsIssueDate: date('dbs_issue_date', { mode: 'string' }),
    dbsEnhancedWithBarredList: boolean('dbs_enhanced_with_barred_list').notNull().default(false),
    dbsOnUpdateService: boolean('dbs_on_update_service').notNull().default(false),
    dbsStatusCheckedOn: date('dbs_status_checked_on', { mode: 'string' }),
    dbsCheckedBy: text('dbs_checked_by'),
    otherChecks: jsonb('other_checks').$type<{ type: string; validUntil: string }[]>().notNull().default([]),
  },
  (t) => [
    index('safeguarding_record_versions_user_idx').on(t.userId, t.recordedOn, t.id),
    check('safeguarding_record_versions_last4_format', sql`${t.dbsCertificateLast4} ~ '^[0-9]{4}$'`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A facilitator's photo, uploaded by staff, so a school can see that the person who arrives is the
 * person checked. Stored as re-encoded JPEG with no metadata (modules/data-protection/photos.ts).
 */
export const facilitatorPhotos = pgTable(
  'facilitator_photos',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    image: bytea('image').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('facilitator_photos_size_check', sql`octet_length(${t.image}) <= 1048576`)],
);

/** The organisation's confirmation statement printed on the school's assurance; a single row (id 1). */
export const assuranceSettings = pgTable(
  'assurance_settings',
  {
    id: integer('id').primaryKey().default(1),
    statement: text('statement').notNull(),
    updatedAt: updatedAt(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('assurance_settings_single_row', sql`${t.id} = 1`)],
);

// --- retention, leavers, erasure ---

/**
 * The retention schedule (modules/retention); a single row (id 1). No row: the defaults in
 * shared/schemas/retention.ts (DEFAULT_RETENTION). Periods count from a leaver's deactivation, or
 * back from today for records.
 */
export const retentionSettings = pgTable(
  'retention_settings',
  {
    id: integer('id').primaryKey().default(1),
    certificateMonths: integer('certificate_months').notNull(),
    anonymiseMonths: integer('anonymise_months').notNull(),
    recordsYears: integer('records_years').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('retention_settings_single_row', sql`${t.id} = 1`),
    check('retention_settings_certificate_months_check', sql`${t.certificateMonths} between 0 and 120`),
    check('retention_settings_anonymise_months_check', sql`${t.anonymiseMonths} between 1 and 240`),
    check('retention_settings_records_years_check', sql`${t.recordsYears} between 1 and 50`),
  ],
);

/** What each run of the retention schedule did: kinds and counts only, never what was removed. */
export const retentionRuns = pgTable('retention_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull(),
});

/**
 * One row per erasure: who erased, when, why, and what was removed and kept (kinds and counts, with
 * the reason for each kept kind). Nothing about the erased person: no id, name or other detail.
 */
export const erasures = pgTable(
  'erasures',
  {
    id: serial('id').primaryKey(),
    erasedAt: timestamp('erased_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    erasedBy: integer('erased_by').references(() => users.id, { onDelete: 'set null' }),
    erasedByName: text('erased_by_name').notNull(),
    reason: text('reason').notNull(),
    removed: jsonb('removed').$type<Record<string, number>>().notNull(),
    kept: jsonb('kept').$type<{ kind: string; count: number; why: string }[]>().notNull(),
  },
  (t) => [check('erasures_reason_not_blank', sql`length(trim(${t.reason})) > 0`)],
);

/**
 * Availability items to remove from SharePoint (an erased person's days), delivered with the
 * availability outbox. `key` is the item's key (`{FreelancerID}|{yyyy-MM-dd}`), kept only until
 * SharePoint has removed the item.
 */
export const availabilityRemovals = pgTable(
  'availability_removals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    itemId: text('item_id'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('availability_removals_next_attempt_idx').on(t.nextAttemptAt)],
);
