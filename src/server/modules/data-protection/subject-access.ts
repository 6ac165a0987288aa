import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { strToU8, type Zippable, zipSync } from 'fflate';
import { CERTIFICATE_VIEW_LABELS } from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import {
  availability,
  bookings,
  calendarFeeds,
  changeHistory,
  facilitatorPhotos,
  microsoftIdentities,
  microsoftInvitations,
  offers,
  passwordLinks,
  reminderSends,
  safeguardingRecords,
  safeguardingReminderSends,
  sessions,
  staffNotes,
  users,
} from '../../db/schema';
import { notFound } from '../../errors';
import { csvLine } from '../exports/service';
import { recordVersionsOf } from '../safeguarding/record-versions';
import { listCertificateViews, recordCertificateView } from './viewing-log';

type Cell = string | number | boolean | null | undefined | Date;
type Row = Record<string, Cell>;

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);
const cellText = (value: Cell) =>
  value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);

/** A CSV file of rows with these columns (a header row, UTF-8 with a byte order mark for Excel). */
function csv(columns: string[], rows: Row[]): Uint8Array {
  const text = `\uFEFF${csvLine(columns)}${rows.map((row) => csvLine(columns.map((c) => cellText(row[c])))).join('')}`;
  return strToU8(text);
}
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

const nameOf = (u: { displayName: string | null; username: string } | null) =>
  u ? u.displayName?.trim() || u.username : null;

/** What each file holds: the archive's README. */
const GUIDE: [string, string][] = [
  [
    'account.json',
    'Your account: name, username, email, role, area, Freelancer ID, when it was made and changed; the Microsoft sign-in linked to it, your calendar feed (on or off, never its address), your signed-in sessions (when, never their keys) and the password links sent to you (when, never the links).',
  ],
  [
    'availability.csv',
    'Every day of availability you or staff saved: the day, available, limited or unavailable, the times, your notes, and whether it reached SharePoint.',
  ],
  [
    'bookings.csv',
    'The sessions booked for you: day, times, school and its address, programme and session details.',
  ],
  [
    'offers.csv',
    'The sessions offered to you: the session, the message, when you had to reply, what happened to the offer and who made it.',
  ],
  ['notes.csv', 'The notes staff wrote about you: the day, the note, its priority, who wrote it and when.'],
  [
    'safeguarding.json',
    'Your safeguarding records in full, as they are now (the whole DBS certificate number, its issue date, the barred list, the Update Service, the status check, who checked it, the other checks), and each earlier state they were saved in (those keep the last four digits of the certificate only).',
  ],
  [
    'reminders.csv',
    'The emails the portal sent you: availability reminders and safeguarding reminders, when, and to which address.',
  ],
  [
    'history.json',
    'Every change the portal recorded about you: what changed (before and after), when, by whom and how.',
  ],
  [
    'viewing-log.csv',
    'Everyone who was shown or sent your whole DBS certificate number: who, when and how (this archive included).',
  ],
  ['photo.jpg', 'Your photo, when staff have kept one, as it is shown to schools on the assurance page.'],
];

function readme(name: string, generatedAt: string, hasPhoto: boolean): Uint8Array {
  const lines = [
    `Everything the Arts Facilitator Portal holds about ${name}`,
    `Made ${generatedAt}.`,
    '',
    'Dates are days (yyyy-MM-dd) in the organisation’s time zone; times with a Z are UTC.',
    'Staff names appear where a member of staff did something about you (wrote a note, made an offer,',
    'saw your certificate): they acted in their role at the organisation. Nobody else’s personal',
    'details are included. Passwords, keys, tokens and links are never included.',
    '',
    'The files:',
    ...GUIDE.filter(([file]) => hasPhoto || file !== 'photo.jpg').map(([file, text]) => `- ${file}: ${text}`),
    '',
  ];
  return strToU8(lines.join('\r\n'));
}

/**
 * Everything the portal holds about one person, as one zip of JSON and CSV files with a README that
 * says what each holds. The whole certificate number is in it, so the download is entered in the
 * viewing log first (the log in the archive shows it). Secrets never go in: no password hash, session
 * key, feed token, link token or sign-in state.
 */
export async function subjectAccessArchive(
  db: Queryable,
  userId: number,
  requestedBy: number,
  now: Date,
): Promise<{ fileName: string; zip: Uint8Array }> {
  const [person] = await db.select().from(users).where(eq(users.id, userId));
  if (!person) throw notFound('Person not found');
  const author = alias(users, 'author');

  const [records] = await db.select().from(safeguardingRecords).where(eq(safeguardingRecords.userId, userId));
  if (records?.dbsCertificateNumber) {
    await recordCertificateView(db, {
      subjectUserId: userId,
      viewerId: requestedBy,
      via: 'subject-access',
      at: now,
    });
  }

  const [
    identities,
    invitations,
    feeds,
    signIns,
    links,
    days,
    booked,
    offered,
    notes,
    versions,
    reminders,
    safeguardingReminders,
    history,
    views,
    photos,
  ] = await Promise.all([
    db.select().from(microsoftIdentities).where(eq(microsoftIdentities.userId, userId)),
    db.select().from(microsoftInvitations).where(eq(microsoftInvitations.userId, userId)),
    db
      .select({ createdAt: calendarFeeds.createdAt })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, userId)),
    db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt)),
    db
      .select({ link: passwordLinks, by: { username: author.username, displayName: author.displayName } })
      .from(passwordLinks)
      .leftJoin(author, eq(author.id, passwordLinks.createdBy))
      .where(eq(passwordLinks.userId, userId))
      .orderBy(asc(passwordLinks.createdAt)),
    db.select().from(availability).where(eq(availability.userId, userId)).orderBy(asc(availability.date)),
    db
      .select()
      .from(bookings)
      .where(eq(bookings.userId, userId))
      .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id)),
    db
      .select({
        offer: offers,
        booking: bookings,
        by: { username: author.username, displayName: author.displayName },
      })
      .from(offers)
      .innerJoin(bookings, eq(bookings.id, offers.bookingId))
      .leftJoin(author, eq(author.id, offers.offeredBy))
      .where(eq(offers.userId, userId))
      .orderBy(asc(offers.id)),
    db
      .select({ note: staffNotes, by: { username: author.username, displayName: author.displayName } })
      .from(staffNotes)
      .leftJoin(author, eq(author.id, staffNotes.createdBy))
      .where(eq(staffNotes.facilitatorId, userId))
      .orderBy(asc(staffNotes.date), asc(staffNotes.id)),
    recordVersionsOf(db, userId),
    db
      .select()
      .from(reminderSends)
      .where(eq(reminderSends.userId, userId))
      .orderBy(asc(reminderSends.sentAt)),
    db
      .select()
      .from(safeguardingReminderSends)
      .where(eq(safeguardingReminderSends.userId, userId))
      .orderBy(asc(safeguardingReminderSends.sentAt)),
    db
      .select()
      .from(changeHistory)
      .where(eq(changeHistory.subjectUserId, userId))
      .orderBy(asc(changeHistory.id)),
    listCertificateViews(db, userId, { limit: 1_000_000 }),
    db
      .select({ image: facilitatorPhotos.image })
      .from(facilitatorPhotos)
      .where(eq(facilitatorPhotos.userId, userId)),
  ]);

  const generatedAt = now.toISOString();
  const name = nameOf(person)!;
  const files: Zippable = {};
  files['README.txt'] = readme(name, generatedAt, photos.length > 0);
  files['account.json'] = json({
    id: person.id,
    username: person.username,
    displayName: person.displayName,
    email: person.email,
    freelancerId: person.freelancerId,
    role: person.role,
    area: person.area,
    hasPassword: person.passwordHash !== null,
    createdAt: iso(person.createdAt),
    updatedAt: iso(person.updatedAt),
    lastAvailabilityUpdatedAt: iso(person.lastAvailabilityUpdatedAt),
    microsoftSignIn: identities.map((identity) => ({
      issuer: identity.issuer,
      tenantId: identity.tenantId,
      objectId: identity.objectId,
      signInName: identity.signInName,
      linkedAt: iso(identity.createdAt),
      lastSignInAt: iso(identity.lastSignInAt),
    })),
    microsoftInvitations: invitations.map((invitation) => ({
      createdAt: iso(invitation.createdAt),
      expiresAt: iso(invitation.expiresAt),
    })),
    calendarFeed: feeds[0] ? { on: true, since: iso(feeds[0].createdAt) } : { on: false },
    sessions: signIns.map((session) => ({
      signedInAt: iso(session.createdAt),
      lastSeenAt: iso(session.lastSeenAt),
      expiresAt: iso(session.expiresAt),
      withMicrosoft: session.signedInWithMicrosoft,
    })),
    passwordLinks: links.map(({ link, by }) => ({
      purpose: link.purpose,
      sentBy: nameOf(by?.username ? by : null),
      createdAt: iso(link.createdAt),
      expiresAt: iso(link.expiresAt),
      usedAt: iso(link.usedAt),
    })),
  });
  files['availability.csv'] = csv(
    ['date', 'status', 'startTime', 'endTime', 'notes', 'syncedToSharePoint', 'updatedAt'],
    days.map((day) => ({ ...day, updatedAt: day.updatedAt })),
  );
  const bookingColumns = [
    'date',
    'startTime',
    'endTime',
    'schoolName',
    'schoolAddress',
    'schoolPostcode',
    'location',
    'program',
    'title',
    'timeSlot',
    'deliveryType',
    'year',
  ];
  files['bookings.csv'] = csv(bookingColumns, booked);
  files['offers.csv'] = csv(
    [
      'sessionDate',
      'sessionStart',
      'sessionEnd',
      'school',
      'session',
      'message',
      'replyBy',
      'state',
      'offeredBy',
      'offeredAt',
      'seenAt',
      'respondedAt',
      'declineReason',
      'endedReason',
      'emailedAt',
      'safeguardingState',
      'safeguardingOverrideReason',
    ],
    offered.map(({ offer, booking, by }) => ({
      sessionDate: booking.date,
      sessionStart: booking.startTime,
      sessionEnd: booking.endTime,
      school: booking.schoolName,
      session: [booking.program, booking.title].filter((part) => part?.trim()).join(' – '),
      message: offer.message,
      replyBy: offer.replyBy,
      state: offer.state,
      offeredBy: nameOf(by?.username ? by : null),
      offeredAt: offer.createdAt,
      seenAt: offer.seenAt,
      respondedAt: offer.respondedAt,
      declineReason: offer.declineReason,
      endedReason: offer.endedReason,
      emailedAt: offer.emailedAt,
      safeguardingState: offer.safeguardingState,
      safeguardingOverrideReason: offer.safeguardingOverrideReason,
    })),
  );
  files['notes.csv'] = csv(
    ['date', 'note', 'priority', 'writtenBy', 'createdAt', 'updatedAt'],
    notes.map(({ note, by }) => ({
      date: note.date,
      note: note.note,
      priority: note.priority,
      writtenBy: nameOf(by?.username ? by : null),
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
    })),
  );
  files['safeguarding.json'] = json({
    current: records
      ? {
          // after the retention cut only the number's last four digits are kept, with the check
          dbs:
            records.dbsCertificateNumber || records.dbsCertificateLastFour
              ? {
                  ...(records.dbsCertificateNumber
                    ? { certificateNumber: records.dbsCertificateNumber }
                    : { certificateLastFour: records.dbsCertificateLastFour }),
                  issueDate: records.dbsIssueDate,
                  enhancedWithBarredList: records.dbsEnhancedWithBarredList,
                  onUpdateService: records.dbsOnUpdateService,
                  statusCheckedOn: records.dbsStatusCheckedOn,
                  checkedBy: records.dbsCheckedBy,
                }
              : null,
          otherChecks: records.otherChecks,
          updatedAt: iso(records.updatedAt),
        }
      : null,
    earlierStates: versions,
  });
  files['reminders.csv'] = csv(
    ['kind', 'about', 'sentOn', 'sentAt', 'email'],
    [
      ...reminders.map((r) => ({
        kind: 'availability reminder',
        about: r.month,
        sentOn: r.sentOn,
        sentAt: r.sentAt,
        email: r.email,
      })),
      ...safeguardingReminders.map((r) => ({
        kind: r.kind === 'digest' ? 'safeguarding digest' : 'safeguarding reminder',
        about: '',
        sentOn: r.sentOn,
        sentAt: r.sentAt,
        email: r.email,
      })),
    ],
  );
  files['history.json'] = json(
    history.map((entry) => ({
      at: iso(entry.at),
      entity: entry.entity,
      action: entry.action,
      date: entry.date,
      by: entry.actorName,
      via: entry.via,
      before: entry.before,
      after: entry.after,
    })),
  );
  files['viewing-log.csv'] = csv(
    ['at', 'seenBy', 'how'],
    views.views.map((view) => ({
      at: view.at,
      seenBy: view.viewerName,
      how: CERTIFICATE_VIEW_LABELS[view.via],
    })),
  );
  if (photos[0]) files['photo.jpg'] = new Uint8Array(photos[0].image);

  const zip = zipSync(files, { level: 6, mtime: now });
  const day = generatedAt.slice(0, 10);
  return { fileName: `subject-access-${person.id}-${day}.zip`, zip };
}
