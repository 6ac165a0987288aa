/**
 * Telling facilitators that a booking on their calendar was added, moved or cancelled: a push per
 * device (the event and a link to their calendar at that day, nothing else), and an email where they
 * chose email for it and the portal's email settings are complete.
 */
import { inArray, sql } from 'drizzle-orm';
import type { PushEvent } from '../../../shared/schemas/notifications';
import { users } from '../../db/schema';
import { bookingMessage } from '../../mail/booking-message';
import type { BookingChange } from '../../sharepoint/bookings-refresh';
import { type MailDeps, sendMail } from '../reminders/service';
import { type NotifyDeps, notify } from './notify';

const EVENTS: Record<BookingChange['change'], PushEvent> = {
  added: 'booking-added',
  moved: 'booking-moved',
  cancelled: 'booking-cancelled',
};

/** The facilitator calendar (the home page) opened at a day. */
export function calendarPath(date: string): string {
  return `/?date=${date}`;
}

export interface BookingChangeOutcome {
  pushes: number;
  /** emails the SMTP server took */
  emailed: number;
}

export async function tellBookingChanges(
  deps: NotifyDeps & MailDeps,
  changes: readonly BookingChange[],
): Promise<BookingChangeOutcome> {
  let pushes = 0;
  const emails: BookingChange[] = [];
  for (const change of changes) {
    const outcome = await notify(deps, change.userId, EVENTS[change.change], calendarPath(change.date));
    pushes += outcome.pushes;
    if (outcome.email) emails.push(change);
  }
  if (emails.length === 0) return { pushes, emailed: 0 };
  const people = await deps.db
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(emails.map((change) => change.userId))]));
  const byId = new Map(people.map((person) => [person.id, person]));
  // without complete email settings every item comes back with the reason, and nothing is sent
  const sent = await sendMail(
    deps,
    emails.map((change, key) => ({
      key,
      to: byId.get(change.userId)?.email ?? null,
      build: (portalUrl: string) =>
        bookingMessage({
          name: byId.get(change.userId)?.name ?? '',
          change: change.change,
          date: change.date,
          previousDate: change.previousDate,
          portalUrl,
          path: calendarPath(change.date),
        }),
    })),
  );
  return { pushes, emailed: [...sent.values()].filter((why) => why === null).length };
}
