/**
 * Safeguarding emails, run by the scheduler (jobs/scheduler.ts): a reminder to each facilitator whose
 * check is due soon, and a weekly digest to staff of everyone whose checks need attention. Both go
 * through the email settings of the availability reminders (the same SMTP server, sender, PUBLIC_URL
 * and outbound-address checks). At most one of each kind per person per day (the unique key of
 * safeguarding_reminder_sends); a row is written only after the SMTP server accepted the message.
 */
import { and, eq, gte, isNull, ne } from 'drizzle-orm';
import { addDays, todayIn } from '../../../shared/calendar';
import { SAFEGUARDING_STATE_LABELS, type SafeguardingStatus } from '../../../shared/safeguarding';
import { AUTO_REMINDER_HOUR } from '../../../shared/schemas/reminders';
import { tryJobLock } from '../../db/job-locks';
import { safeguardingReminderSends, users } from '../../db/schema';
import { describeError } from '../../errors';
import { PORTAL_NAME } from '../../mail/reminder-message';
import { describeMailError, type Mailer, openMailer } from '../../mail/transport';
import { localTime } from '../../office-hours';
import { notify } from '../notifications/notify';
import { loadMailSettings, type ReminderDeps } from '../reminders/service';
import { STAFF_ROLE } from '../users/service';
import { listStatuses } from './service';

/** The digest goes out on Mondays (ORG_TIMEZONE). */
export const DIGEST_WEEKDAY = 1;
/** A facilitator is reminded of a check due soon at most once in this many days. */
export const EXPIRY_REMINDER_EVERY_DAYS = 7;

type Kind = 'expiry' | 'digest';

export interface SafeguardingReminderRun {
  outcome: 'not-yet' | 'not-configured' | 'busy' | 'done' | 'failed';
  expirySent: number;
  digestSent: number;
  failed: number;
}

interface Outgoing {
  userId: number;
  email: string;
  kind: Kind;
  subject: string;
  text: string;
}

function expiryMessage(
  name: string,
  status: SafeguardingStatus,
  portalUrl: string,
): Omit<Outgoing, 'userId' | 'email' | 'kind'> {
  const due = status.checks.filter((check) => check.state === 'expiring');
  return {
    subject: 'Your safeguarding check is due for renewal',
    text: [
      `Hello ${name},`,
      '',
      'Before we can keep sending you into schools, these checks need renewing:',
      ...due.map((check) => `- ${check.message}`),
      '',
      'Please send the new details to the office. You can see your checks on your settings page:',
      `${portalUrl}/settings`,
      '',
      'Thank you.',
      PORTAL_NAME,
    ].join('\n'),
  };
}

function digestMessage(
  name: string,
  people: { name: string; status: SafeguardingStatus }[],
  portalUrl: string,
): Omit<Outgoing, 'userId' | 'email' | 'kind'> {
  return {
    subject: `Safeguarding checks: ${people.length} ${people.length === 1 ? 'facilitator needs' : 'facilitators need'} attention`,
    text: [
      `Hello ${name},`,
      '',
      'These facilitators have safeguarding checks that are missing, expired or due soon:',
      ...people.map(
        (person) =>
          `- ${person.name} (${SAFEGUARDING_STATE_LABELS[person.status.state]}): ${person.status.reasons.join('; ')}`,
      ),
      '',
      'Facilitators whose checks are missing or expired are left out of Who is free. Manage Users:',
      `${portalUrl}/staff/users`,
      '',
      PORTAL_NAME,
    ].join('\n'),
  };
}

/**
 * One look at the safeguarding emails: from AUTO_REMINDER_HOUR in ORG_TIMEZONE, every day for the
 * facilitators' reminders, on Mondays for the staff digest. Quiet (no error) while email is not set
 * up. Never throws.
 */
async function recordSend(
  ctx: Pick<ReminderDeps, 'db' | 'log'>,
  message: { userId: number; kind: 'expiry' | 'digest'; email: string },
  today: string,
  now: Date,
): Promise<void> {
  await ctx.db
    .insert(safeguardingReminderSends)
    .values({ userId: message.userId, kind: message.kind, sentOn: today, sentAt: now, email: message.email })
    .onConflictDoNothing()
    .catch((error: unknown) =>
      ctx.log.warn({ err: describeError(error) }, 'safeguarding email not recorded'),
    );
}

export async function runSafeguardingReminders(ctx: ReminderDeps): Promise<SafeguardingReminderRun> {
  const result: SafeguardingReminderRun = { outcome: 'done', expirySent: 0, digestSent: 0, failed: 0 };
  const now = ctx.now();
  const timeZone = ctx.config.ORG_TIMEZONE;
  const local = localTime(now, timeZone);
  if (local.minute < AUTO_REMINDER_HOUR * 60) return { ...result, outcome: 'not-yet' };
  let mail: Awaited<ReturnType<typeof loadMailSettings>>;
  try {
    mail = await loadMailSettings(ctx);
  } catch {
    return { ...result, outcome: 'not-configured' };
  }
  const lock = await tryJobLock(ctx.database, 'safeguarding-reminders');
  if (!lock) return { ...result, outcome: 'busy' };
  try {
    const today = todayIn(timeZone, now);
    const outgoing = await messagesFor(ctx, today, local.dayOfWeek === DIGEST_WEEKDAY, mail.portalUrl);
    if (outgoing.length === 0) return result;
    let mailer: Mailer | null = null;
    try {
      let broken: string | null = null;
      try {
        mailer = await openMailer(mail.smtp, {
          ...ctx.mailer.options,
          allowedNetworks: ctx.config.SMTP_ALLOWED_NETWORKS,
        });
        await mailer.verify();
      } catch (error) {
        broken = describeMailError(error);
      }
      for (const message of outgoing) {
        const link = message.kind === 'expiry' ? '/settings' : '/staff';
        const told = await notify(ctx, message.userId, 'safeguarding-expiring', link);
        if (!told.email) {
          // told by push (or as they chose, not at all): recorded, so today's later ticks skip them
          await recordSend(ctx, message, today, now);
          continue;
        }
        if (broken || !mailer) {
          result.failed += 1;
          continue;
        }
        try {
          await mailer.send({
            from: { name: PORTAL_NAME, address: mail.fromAddress },
            to: message.email,
            subject: message.subject,
            text: message.text,
            html: `<pre style="font-family:inherit;white-space:pre-wrap">${escapeHtml(message.text)}</pre>`,
          });
        } catch (error) {
          result.failed += 1;
          ctx.log.warn({ err: describeMailError(error) }, 'safeguarding email not sent');
          continue;
        }
        if (message.kind === 'expiry') result.expirySent += 1;
        else result.digestSent += 1;
        await recordSend(ctx, message, today, now);
      }
    } finally {
      mailer?.close();
    }
    if (result.failed > 0) result.outcome = 'failed';
    ctx.log.info(
      { expirySent: result.expirySent, digestSent: result.digestSent, failed: result.failed },
      'safeguarding reminders',
    );
    return result;
  } catch (error) {
    ctx.log.warn({ err: describeError(error) }, 'safeguarding reminders failed');
    return { ...result, outcome: 'failed' };
  } finally {
    await lock.release();
  }
}

async function messagesFor(
  ctx: Pick<ReminderDeps, 'db'>,
  today: string,
  digestDay: boolean,
  portalUrl: string,
): Promise<Outgoing[]> {
  const [list, recent, people] = await Promise.all([
    listStatuses(ctx.db, today),
    ctx.db
      .select({
        userId: safeguardingReminderSends.userId,
        kind: safeguardingReminderSends.kind,
        sentOn: safeguardingReminderSends.sentOn,
      })
      .from(safeguardingReminderSends)
      .where(gte(safeguardingReminderSends.sentOn, addDays(today, 1 - EXPIRY_REMINDER_EVERY_DAYS))),
    // the active accounts: a leaver is neither reminded nor in the digest
    ctx.db
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(isNull(users.deactivatedAt)),
  ]);
  const emailOf = new Map(people.map((person) => [person.id, person.email?.trim() || null]));
  const remindedRecently = new Set(recent.filter((row) => row.kind === 'expiry').map((row) => row.userId));
  const digestedToday = new Set(
    recent.filter((row) => row.kind === 'digest' && row.sentOn === today).map((row) => row.userId),
  );
  const outgoing: Outgoing[] = [];
  for (const person of list.people) {
    const email = emailOf.get(person.userId);
    if (person.status.state !== 'expiring' || !email || remindedRecently.has(person.userId)) continue;
    outgoing.push({
      userId: person.userId,
      email,
      kind: 'expiry',
      ...expiryMessage(person.name, person.status, portalUrl),
    });
  }
  if (digestDay) {
    // a leaver's checks no longer need anyone's attention: deactivated accounts are left out
    const attention = list.people.filter(
      (person) => emailOf.has(person.userId) && person.status.state !== 'valid',
    );
    if (attention.length > 0) {
      const staff = await ctx.db
        .select({
          id: users.id,
          username: users.username,
          displayName: users.displayName,
          email: users.email,
        })
        .from(users)
        .where(and(eq(users.role, STAFF_ROLE), ne(users.email, ''), isNull(users.deactivatedAt)));
      for (const member of staff) {
        const email = member.email?.trim();
        if (!email || digestedToday.has(member.id)) continue;
        const name = member.displayName?.trim() || member.username;
        outgoing.push({
          userId: member.id,
          email,
          kind: 'digest',
          ...digestMessage(name, attention, portalUrl),
        });
      }
    }
  }
  return outgoing;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
