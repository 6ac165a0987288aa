/**
 * What erasing a person does to each table, in one place, keyed by table name. Every table of the
 * database is named here, either with its step or with why it holds nothing about a person: a test
 * (erasure.test.ts) reads the tables from pg_catalog and fails by name when one is missing, so a new
 * table is added here when it is made.
 *
 * Steps run in this order inside the erasure's transaction. Each returns what it removed or blanked
 * and, when the policy keeps something, how much and why; the erasure record keeps those counts and
 * reasons, never the content.
 */
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { ErasureKind } from '../../../shared/schemas/retention';
import type { Queryable } from '../../db/client';
import {
  availability,
  bookingOutbox,
  bookings,
  calendarFeeds,
  changeHistory,
  erasures,
  facilitatorPhotos,
  loginThrottle,
  microsoftIdentities,
  microsoftInvitations,
  notificationPreferences,
  notificationQuietHours,
  offers,
  passkeys,
  passwordLinks,
  pushOutbox,
  pushSubscriptions,
  reminderSends,
  requestLimits,
  safeguardingRecords,
  safeguardingReminderSends,
  sessions,
  staffNotes,
  syncOutbox,
  users,
  webauthnChallenges,
} from '../../db/schema';
import { enqueueRemovalsOfPerson } from '../../sharepoint/availability-removals';
import { erasePhoto } from '../data-protection/photos';
import { eraseCertificateViews } from '../data-protection/viewing-log';
import { eraseRecordVersions } from '../safeguarding/record-versions';

/** The person being erased, as the steps need them. */
export interface ErasedPerson {
  id: number;
  usernameCanonical: string;
  freelancerId: string | null;
}

export interface StepOutcome {
  /** rows removed, or blanked where a row stays for someone else */
  removed: number;
  kept?: { count: number; why: string };
}

export interface ErasureStep {
  /** the kind the erasure record names (shown in the words of ERASURE_KIND_LABELS) */
  kind: ErasureKind;
  run(tx: Queryable, person: ErasedPerson, now: Date): Promise<StepOutcome>;
}

/** A table that holds nothing about a person, and why. */
export interface NothingToErase {
  nothing: string;
}

const removedCount = (rows: unknown[]) => ({ removed: rows.length });

/** Rows that name the person as who did something for someone else: the name goes, the row stays. */
async function unlink<T extends { id: unknown }>(run: Promise<T[]>): Promise<number> {
  return (await run).length;
}

export const ERASURE_STEPS: ReadonlyArray<readonly [table: string, step: ErasureStep | NothingToErase]> = [
  [
    'sessions',
    {
      kind: 'signInSessions',
      run: async (tx, p) =>
        removedCount(
          await tx.delete(sessions).where(eq(sessions.userId, p.id)).returning({ id: sessions.id }),
        ),
    },
  ],
  [
    'calendar_feeds',
    {
      kind: 'calendarFeed',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(calendarFeeds)
            .where(eq(calendarFeeds.userId, p.id))
            .returning({ id: calendarFeeds.userId }),
        ),
    },
  ],
  [
    'microsoft_identities',
    {
      kind: 'microsoftSignIn',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(microsoftIdentities)
            .where(eq(microsoftIdentities.userId, p.id))
            .returning({ id: microsoftIdentities.id }),
        ),
    },
  ],
  [
    'microsoft_invitations',
    {
      kind: 'microsoftInvitations',
      run: async (tx, p) => {
        const removed = await tx
          .delete(microsoftInvitations)
          .where(eq(microsoftInvitations.userId, p.id))
          .returning({ id: microsoftInvitations.tokenHash });
        const unlinked = await unlink(
          tx
            .update(microsoftInvitations)
            .set({ createdBy: null })
            .where(eq(microsoftInvitations.createdBy, p.id))
            .returning({ id: microsoftInvitations.tokenHash }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'password_links',
    {
      kind: 'passwordLinks',
      run: async (tx, p) => {
        const removed = await tx
          .delete(passwordLinks)
          .where(eq(passwordLinks.userId, p.id))
          .returning({ id: passwordLinks.tokenHash });
        const unlinked = await unlink(
          tx
            .update(passwordLinks)
            .set({ createdBy: null })
            .where(eq(passwordLinks.createdBy, p.id))
            .returning({ id: passwordLinks.tokenHash }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'login_throttle',
    {
      kind: 'signInAttempts',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(loginThrottle)
            .where(
              or(
                eq(loginThrottle.account, p.usernameCanonical),
                sql`${loginThrottle.key} like ${`% ${p.usernameCanonical}`}`,
                eq(loginThrottle.key, `account:${p.usernameCanonical}`),
              ),
            )
            .returning({ id: loginThrottle.key }),
        ),
    },
  ],
  [
    'request_limits',
    {
      kind: 'requestBudgets',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(requestLimits)
            .where(sql`${requestLimits.key} like ${`%user:${p.id}`}`)
            .returning({ id: requestLimits.key }),
        ),
    },
  ],
  [
    'availability_removals',
    {
      kind: 'sharePointAvailability',
      // Queued here, removed from the table once SharePoint has deleted each item (the outbox's drain).
      run: async (tx, p, now) => {
        if (!p.freelancerId) return { removed: 0 };
        const queued = await enqueueRemovalsOfPerson(tx, p, now);
        return { removed: 0, kept: { count: queued, why: 'until SharePoint has removed each item' } };
      },
    },
  ],
  [
    'sharepoint_availability_items',
    { nothing: 'the person’s items leave this index in the availability_removals step' },
  ],
  [
    'sync_outbox',
    {
      kind: 'availabilityOutbox',
      run: async (tx, p) =>
        removedCount(
          await tx.delete(syncOutbox).where(eq(syncOutbox.userId, p.id)).returning({ id: syncOutbox.id }),
        ),
    },
  ],
  [
    'availability',
    {
      kind: 'availability',
      run: async (tx, p) => {
        const removed = await tx
          .delete(availability)
          .where(eq(availability.userId, p.id))
          .returning({ id: availability.id });
        const unlinked = await unlink(
          tx
            .update(availability)
            .set({ updatedBy: null })
            .where(eq(availability.updatedBy, p.id))
            .returning({ id: availability.id }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'staff_notes',
    {
      kind: 'notes',
      run: async (tx, p) => {
        const removed = await tx
          .delete(staffNotes)
          .where(eq(staffNotes.facilitatorId, p.id))
          .returning({ id: staffNotes.id });
        const unlinked = await unlink(
          tx
            .update(staffNotes)
            .set({ createdBy: null })
            .where(eq(staffNotes.createdBy, p.id))
            .returning({ id: staffNotes.id }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'booking_outbox',
    {
      kind: 'bookingOutbox',
      run: async (tx, p) => {
        // an acceptance of theirs not yet written goes with the offer (its foreign key cascades)
        const unlinked = await unlink(
          tx
            .update(bookingOutbox)
            .set({ createdBy: null })
            .where(eq(bookingOutbox.createdBy, p.id))
            .returning({ id: bookingOutbox.id }),
        );
        return { removed: unlinked };
      },
    },
  ],
  [
    'offers',
    {
      kind: 'offers',
      run: async (tx, p) => {
        const removed = await tx.delete(offers).where(eq(offers.userId, p.id)).returning({ id: offers.id });
        const unlinked = await unlink(
          tx
            .update(offers)
            .set({ offeredBy: null })
            .where(eq(offers.offeredBy, p.id))
            .returning({ id: offers.id }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'bookings',
    {
      kind: 'sessions',
      run: async (tx, p) => {
        const mine = p.freelancerId
          ? or(eq(bookings.userId, p.id), eq(bookings.freelancerId, p.freelancerId))
          : eq(bookings.userId, p.id);
        const kept = await tx
          .update(bookings)
          .set({ userId: null, freelancerId: null })
          .where(mine)
          .returning({ id: bookings.id });
        return {
          removed: 0,
          kept: {
            count: kept.length,
            why: 'the organisation’s record of sessions delivered, kept without the person',
          },
        };
      },
    },
  ],
  [
    'reminder_sends',
    {
      kind: 'availabilityReminders',
      run: async (tx, p) => {
        const removed = await tx
          .delete(reminderSends)
          .where(eq(reminderSends.userId, p.id))
          .returning({ id: reminderSends.id });
        const unlinked = await unlink(
          tx
            .update(reminderSends)
            .set({ sentBy: null })
            .where(eq(reminderSends.sentBy, p.id))
            .returning({ id: reminderSends.id }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'safeguarding_records',
    {
      kind: 'safeguardingRecords',
      run: async (tx, p) => {
        const removed = await tx
          .delete(safeguardingRecords)
          .where(eq(safeguardingRecords.userId, p.id))
          .returning({ id: safeguardingRecords.userId });
        const unlinked = await unlink(
          tx
            .update(safeguardingRecords)
            .set({ updatedBy: null })
            .where(eq(safeguardingRecords.updatedBy, p.id))
            .returning({ id: safeguardingRecords.userId }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'safeguarding_reminder_sends',
    {
      kind: 'safeguardingReminders',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(safeguardingReminderSends)
            .where(eq(safeguardingReminderSends.userId, p.id))
            .returning({ id: safeguardingReminderSends.id }),
        ),
    },
  ],
  [
    'change_history',
    {
      kind: 'history',
      // Changes about the person go; changes they made to others' records stay, without their name.
      run: async (tx, p) => {
        await tx.execute(sql`set local change_history.purge = 'on'`);
        await tx.execute(sql`set local change_history.anonymise = 'on'`);
        const removed = await tx
          .delete(changeHistory)
          .where(eq(changeHistory.subjectUserId, p.id))
          .returning({ id: changeHistory.id });
        const unlinked = await unlink(
          tx
            .update(changeHistory)
            .set({ actorId: null, actorName: null })
            .where(eq(changeHistory.actorId, p.id))
            .returning({ id: changeHistory.id }),
        );
        return { removed: removed.length + unlinked };
      },
    },
  ],
  [
    'passkeys',
    {
      kind: 'passkeys',
      run: async (tx, p) =>
        removedCount(
          await tx.delete(passkeys).where(eq(passkeys.userId, p.id)).returning({ id: passkeys.id }),
        ),
    },
  ],
  [
    'webauthn_challenges',
    {
      kind: 'passkeyChallenges',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(webauthnChallenges)
            .where(eq(webauthnChallenges.userId, p.id))
            .returning({ id: webauthnChallenges.challengeHash }),
        ),
    },
  ],
  [
    'push_outbox',
    {
      kind: 'pushOutbox',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(pushOutbox)
            .where(
              inArray(
                pushOutbox.subscriptionId,
                tx
                  .select({ id: pushSubscriptions.id })
                  .from(pushSubscriptions)
                  .where(eq(pushSubscriptions.userId, p.id)),
              ),
            )
            .returning({ id: pushOutbox.id }),
        ),
    },
  ],
  [
    'push_subscriptions',
    {
      kind: 'pushSubscriptions',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(pushSubscriptions)
            .where(eq(pushSubscriptions.userId, p.id))
            .returning({ id: pushSubscriptions.id }),
        ),
    },
  ],
  [
    'notification_preferences',
    {
      kind: 'notificationChoices',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(notificationPreferences)
            .where(eq(notificationPreferences.userId, p.id))
            .returning({ id: notificationPreferences.kind }),
        ),
    },
  ],
  [
    'notification_quiet_hours',
    {
      kind: 'quietHours',
      run: async (tx, p) =>
        removedCount(
          await tx
            .delete(notificationQuietHours)
            .where(eq(notificationQuietHours.userId, p.id))
            .returning({ id: notificationQuietHours.userId }),
        ),
    },
  ],
  [
    'certificate_views',
    {
      kind: 'certificateViews',
      // entries about the person go; where they viewed someone else's, the entry stays without their name
      run: async (tx, p) => {
        const { removed, anonymised } = await eraseCertificateViews(tx, p.id);
        return { removed: removed + anonymised };
      },
    },
  ],
  [
    'safeguarding_record_versions',
    {
      kind: 'recordVersions',
      run: async (tx, p) => ({ removed: await eraseRecordVersions(tx, p.id) }),
    },
  ],
  [
    'facilitator_photos',
    {
      kind: 'photo',
      run: async (tx, p) => {
        const removed = await erasePhoto(tx, p.id);
        const unlinked = await unlink(
          tx
            .update(facilitatorPhotos)
            .set({ uploadedBy: null })
            .where(eq(facilitatorPhotos.uploadedBy, p.id))
            .returning({ id: facilitatorPhotos.userId }),
        );
        return { removed: removed + unlinked };
      },
    },
  ],
  [
    'assurance_settings',
    {
      nothing:
        'the organisation’s assurance statement; who last saved it is cleared by its foreign key when their account goes',
    },
  ],
  ['sign_in_policy', { nothing: 'the organisation’s sign-in policy' }],
  [
    'erasures',
    {
      kind: 'erasures',
      run: async (tx, p) =>
        removedCount(
          await tx
            .update(erasures)
            .set({ erasedBy: null, erasedByName: 'an erased account' })
            .where(eq(erasures.erasedBy, p.id))
            .returning({ id: erasures.id }),
        ),
    },
  ],
  [
    'users',
    {
      kind: 'account',
      run: async (tx, p) =>
        removedCount(await tx.delete(users).where(eq(users.id, p.id)).returning({ id: users.id })),
    },
  ],
  [
    'list_versions',
    {
      nothing:
        'version counters of cached lists, by account id: no personal data, and kept so a cached list is never taken for the current one',
    },
  ],
  ['sharepoint_settings', { nothing: 'the connection to SharePoint' }],
  [
    'facilitator_areas',
    { nothing: 'how many facilitators each area has, kept by a trigger on users: counts, naming no one' },
  ],
  ['scheduler_state', { nothing: 'what background jobs did: counts and times' }],
  ['app_meta', { nothing: 'generated secrets' }],
  ['reminder_settings', { nothing: 'the mail settings' }],
  ['microsoft_sign_in_requests', { nothing: 'sealed sign-ins under way, minutes long, naming no account' }],
  ['microsoft_sign_in_settings', { nothing: 'the Microsoft sign-in settings' }],
  ['safeguarding_policy', { nothing: 'the organisation’s safeguarding policy' }],
  ['safeguarding_policy_versions', { nothing: 'the policy as it stood from each day' }],
  ['retention_settings', { nothing: 'the retention schedule' }],
  ['retention_runs', { nothing: 'what each retention run did: kinds and counts' }],
];

/** The steps to run, in order. */
export const erasureSteps = (): Array<[string, ErasureStep]> =>
  ERASURE_STEPS.filter((entry): entry is [string, ErasureStep] => 'run' in entry[1]).map(([t, s]) => [t, s]);
