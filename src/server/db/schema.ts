import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
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
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_freelancer_id_idx').on(t.freelancerId),
    index('users_role_idx').on(t.role),
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
    // per-list delta links, keyed by list name
    deltaLinks: jsonb('delta_links').$type<Record<string, string>>().notNull().default({}),
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
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Failed-login counters per account and per address; shared by every instance. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
});

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
 * (drizzle/0005_list_versions.sql). Cached list answers are keyed by it (http/list-cache.ts).
 * `user_id` is 0 for lists versioned as a whole (bookings). No foreign key: a deleted facilitator's
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

/** Generated secrets live here when APP_SECRET is not given and DATA_DIR is not used (PostgreSQL). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// --- issue 9: patterns, who is free, completeness ---

// --- issue 9: reminders ---

// --- issue 10: calendar feed, exports ---

// --- issue 10: history ---
