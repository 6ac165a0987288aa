import { setTimeout as sleep } from 'node:timers/promises';
import { eq, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { addMonths, monthLabel, todayIn } from '../../../shared/calendar';
import {
  AUTO_REMINDER_HOUR,
  type AutoMonth,
  type ReminderResult,
  type ReminderSettingsInput,
  type ReminderSettingsResponse,
  reminderSettingsBody,
  type SendRemindersResponse,
  type SmtpSecurity,
} from '../../../shared/schemas/reminders';
import type { Config } from '../../config';
import { decryptSecret, deriveKey, encryptSecret, isUnboundSecret } from '../../crypto';
import type { Database, Db, Queryable } from '../../db/client';
import { type JobLock, tryJobLock } from '../../db/job-locks';
import { reminderSends, reminderSettings, schedulerState, users } from '../../db/schema';
import { AppError, badRequest, conflict, describeError } from '../../errors';
import type { OutgoingMessage } from '../../mail/offer-message';
import { PORTAL_NAME, reminderMessage } from '../../mail/reminder-message';
import {
  describeMailError,
  type Mailer,
  type MailRuntime,
  openMailer,
  type SmtpSettings,
} from '../../mail/transport';
import { localTime } from '../../office-hours';
import { blockedAddresses } from '../../outbound-address';
import { computeCompleteness } from '../completeness/service';
import { recordChanges } from '../history/record';
import { notify, type PushWakeUp } from '../notifications/notify';

type SettingsRow = typeof reminderSettings.$inferSelect;

const SETTINGS_ID = 1;
const settingsKey = (appSecret: string) => deriveKey(appSecret, 'reminder-settings');
/** Once a day per person, whatever month the reminder was about: more would be a nuisance. */
export const ALREADY_REMINDED_TODAY = 'Already reminded today';
/** How long a send waits for another run (a second click, another instance) to finish. */
const LOCK_WAIT_MS = 60_000;

export const NOT_CONFIGURED_MESSAGE =
  'Email is not set up yet: add the email server and sender in Settings first.';
/** Links in a reminder come from the operator's PUBLIC_URL only, never from anything typed in the portal. */
export const NO_PUBLIC_URL_MESSAGE =
  'Set PUBLIC_URL (the address people open the portal at) in the portal’s environment before sending reminders: their link points there.';
/** How far from this month (ORG_TIMEZONE) a reminder may be about, either way. */
export const REMINDER_MONTH_WINDOW = 12;

/**
 * Where a stored SMTP password may be used: the server, port, security and account it was typed
 * for. It is the GCM associated data of the sealed password, so it opens for nothing else.
 */
export function smtpDestination(d: {
  host: string;
  port: number;
  security: string;
  username: string;
}): string {
  return JSON.stringify(['smtp', d.host.toLowerCase().replace(/\.$/, ''), d.port, d.security, d.username]);
}

function rowDestination(row: SettingsRow): string {
  return smtpDestination({
    host: row.smtpHost,
    port: row.smtpPort,
    security: row.smtpSecurity,
    username: row.smtpUsername,
  });
}

/** A password stored before binding, sealed again for its destination; as it was if it cannot be read. */
function resealBound(key: Buffer, row: SettingsRow, destination: string): string | null {
  try {
    return encryptSecret(key, openPassword(key, row), destination);
  } catch {
    // unreadable (APP_SECRET changed): sending reports it and asks for the password again
    return row.smtpPasswordEncrypted;
  }
}

function openPassword(key: Buffer, row: SettingsRow): string {
  // a password sealed before binding existed belongs to the row it was read from
  return decryptSecret(key, row.smtpPasswordEncrypted ?? '', rowDestination(row), { acceptUnbound: true });
}

async function readRow(db: Queryable, lock = false): Promise<SettingsRow | undefined> {
  const query = db.select().from(reminderSettings).where(eq(reminderSettings.id, SETTINGS_ID));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

function isConfigured(row: SettingsRow | undefined): row is SettingsRow {
  return Boolean(row?.smtpHost && row.fromAddress);
}

/** The month the automatic reminder on `day` is about. */
export function automaticMonthFor(day: string, which: AutoMonth): string {
  return (which === 'next' ? addMonths(`${day.slice(0, 7)}-01`, 1) : day).slice(0, 7);
}

/** The day (ORG_TIMEZONE) the next automatic reminder goes out, from `now`. */
export function nextAutomaticDate(autoDay: number, timeZone: string, now: Date, doneToday: boolean): string {
  const today = todayIn(timeZone, now);
  const thisMonths = `${today.slice(0, 8)}${String(autoDay).padStart(2, '0')}`;
  if (thisMonths > today || (thisMonths === today && !doneToday)) return thisMonths;
  return addMonths(thisMonths, 1);
}

function toResponse(
  row: SettingsRow | undefined,
  ctx: Pick<ReminderDeps, 'config' | 'now'>,
  doneToday: boolean,
  passwordCleared = false,
): ReminderSettingsResponse {
  const autoDay = row?.autoDay ?? 1;
  const autoMonth = (row?.autoMonth ?? 'next') as AutoMonth;
  let nextAutomatic: ReminderSettingsResponse['nextAutomatic'] = null;
  if (row?.autoEnabled && isConfigured(row)) {
    const date = nextAutomaticDate(autoDay, ctx.config.ORG_TIMEZONE, ctx.now(), doneToday);
    const month = automaticMonthFor(date, autoMonth);
    nextAutomatic = { date, month, label: monthLabel(`${month}-01`) };
  }
  return {
    host: row?.smtpHost ?? '',
    port: row?.smtpPort ?? 587,
    security: (row?.smtpSecurity ?? 'starttls') as SmtpSecurity,
    username: row?.smtpUsername ?? '',
    hasPassword: Boolean(row?.smtpPasswordEncrypted),
    fromAddress: row?.fromAddress ?? '',
    portalUrl: ctx.config.PUBLIC_URL ?? '',
    autoEnabled: row?.autoEnabled ?? false,
    autoDay,
    autoMonth,
    configured: isConfigured(row) && Boolean(ctx.config.PUBLIC_URL),
    nextAutomatic,
    passwordCleared,
  };
}

export async function getReminderSettings(
  ctx: Pick<ReminderDeps, 'config' | 'db' | 'now'>,
): Promise<ReminderSettingsResponse> {
  const [row, doneToday] = await Promise.all([readRow(ctx.db), automaticDoneToday(ctx)]);
  return toResponse(row, ctx, doneToday);
}

/** The settings as the change history keeps them: never the password, only whether one is stored. */
function historyView(row: SettingsRow) {
  return {
    section: 'email',
    host: row.smtpHost,
    port: row.smtpPort,
    security: row.smtpSecurity,
    username: row.smtpUsername,
    hasPassword: Boolean(row.smtpPasswordEncrypted),
    fromAddress: row.fromAddress,
    autoEnabled: row.autoEnabled,
    autoDay: row.autoDay,
    autoMonth: row.autoMonth,
  };
}

/**
 * Save the email settings. A blank password keeps the stored one only while the server, port,
 * security and username stay as they were: a password goes to the server it was typed for and no
 * other, so any change there without the password typed again clears it (and the answer says so).
 * A blank username means the server takes mail without signing in, so the password goes with it.
 * Recorded in the change history in the same transaction, the password redacted.
 */
export async function saveReminderSettings(
  ctx: Pick<ReminderDeps, 'appSecret' | 'config' | 'db' | 'now'>,
  input: unknown,
  actorId: number,
): Promise<ReminderSettingsResponse> {
  const data: ReminderSettingsInput = reminderSettingsBody.parse(input);
  await refuseBlockedHost(ctx, data.host);
  const key = settingsKey(ctx.appSecret);
  const destination = smtpDestination(data);
  const { row, passwordCleared } = await ctx.db.transaction(async (tx) => {
    const existing = await readRow(tx, true);
    const stored = existing?.smtpPasswordEncrypted ?? null;
    const sameDestination = Boolean(existing && rowDestination(existing) === destination);
    let passwordEncrypted: string | null = null;
    if (data.username && data.password) passwordEncrypted = encryptSecret(key, data.password, destination);
    else if (data.username && stored && sameDestination)
      passwordEncrypted = isUnboundSecret(stored) ? resealBound(key, existing!, destination) : stored;
    const values = {
      smtpHost: data.host,
      smtpPort: data.port,
      smtpSecurity: data.security,
      smtpUsername: data.username,
      smtpPasswordEncrypted: passwordEncrypted,
      fromAddress: data.fromAddress,
      autoEnabled: data.autoEnabled,
      autoDay: data.autoDay,
      autoMonth: data.autoMonth,
      updatedAt: ctx.now(),
    };
    const [saved] = await tx
      .insert(reminderSettings)
      .values({ id: SETTINGS_ID, ...values })
      .onConflictDoUpdate({ target: reminderSettings.id, set: values })
      .returning();
    const cleared = Boolean(stored) && !passwordEncrypted;
    const after = {
      ...historyView(saved!),
      ...(data.password && data.username ? { password: 'changed' } : cleared ? { password: 'cleared' } : {}),
    };
    await recordChanges(tx, [
      {
        entity: 'settings',
        action: existing ? 'update' : 'create',
        subjectUserId: null,
        actorId,
        via: 'staff',
        before: existing ? historyView(existing) : null,
        after,
      },
    ]);
    return { row: saved!, passwordCleared: cleared };
  });
  return toResponse(row, ctx, await automaticDoneToday(ctx), passwordCleared);
}

/**
 * A host every connection would refuse (outbound-address.ts) is refused when it is saved too, saying
 * which host and which setting would allow it, rather than being stored to fail at every send.
 */
async function refuseBlockedHost(ctx: Pick<ReminderDeps, 'config'>, host: string): Promise<void> {
  if (!host) return;
  const blocked = await blockedAddresses(host, ctx.config.SMTP_ALLOWED_NETWORKS);
  if (!blocked) return;
  const where = blocked.length > 0 && !blocked.includes(host) ? ` (${blocked.join(', ')})` : '';
  const message = `${host}${where} is on a private, loopback, link-local or reserved network, which the portal does not send email to. If it is your organisation's own mail relay, the operator can allow its network with SMTP_ALLOWED_NETWORKS in the portal's environment.`;
  throw badRequest(message, { host: [message] });
}

/**
 * The stored SMTP settings with the password decrypted; 409 when email is not set up. Every email the
 * portal sends (availability and safeguarding reminders) goes through these settings.
 */
/**
 * What sending email needs: the saved settings (in the database, the password sealed with the app's
 * secret), the configuration (the portal's address, the networks a mail server may be on) and the
 * transport's options.
 */
export interface MailDeps {
  db: Db;
  appSecret: string;
  config: Config;
  mailer: MailRuntime;
}

/** What the reminders use besides email: the job lock (database), the log and the clock. */
/** A facilitator who chose to hear of reminders by push (or not at all) gets no email. */
export const PUSH_ONLY = 'Chose not to get reminders by email';

export interface ReminderDeps extends MailDeps {
  database: Database;
  log: FastifyBaseLogger;
  now: () => Date;
  /** wakes push delivery after reminders were queued as pushes (modules/notifications) */
  push: PushWakeUp;
}

export async function loadMailSettings(
  ctx: MailDeps,
): Promise<{ smtp: SmtpSettings; fromAddress: string; portalUrl: string }> {
  const row = await readRow(ctx.db);
  if (!isConfigured(row)) throw conflict(NOT_CONFIGURED_MESSAGE);
  const portalUrl = ctx.config.PUBLIC_URL;
  if (!portalUrl) throw conflict(NO_PUBLIC_URL_MESSAGE);
  let password = '';
  if (row.smtpUsername && row.smtpPasswordEncrypted) {
    try {
      password = openPassword(settingsKey(ctx.appSecret), row);
    } catch {
      throw conflict(
        'The stored email password could not be read (was APP_SECRET changed?). Enter it again in Settings and save.',
      );
    }
  }
  return {
    smtp: {
      host: row.smtpHost,
      port: row.smtpPort,
      security: row.smtpSecurity as SmtpSecurity,
      username: row.smtpUsername,
      password,
    },
    fromAddress: row.fromAddress,
    portalUrl,
  };
}

/**
 * Sends a batch of the portal's emails (offers, notices about accounts) through the email settings,
 * over one connection; null per key when the server took it, else why not.
 */
export async function sendMail<K>(
  ctx: MailDeps,
  items: Array<{ key: K; to: string | null; build: (portalUrl: string) => OutgoingMessage }>,
): Promise<Map<K, string | null>> {
  const outcome = new Map<K, string | null>();
  if (items.length === 0) return outcome;
  let settings: Awaited<ReturnType<typeof loadMailSettings>>;
  try {
    settings = await loadMailSettings(ctx);
  } catch (error) {
    const why = error instanceof AppError ? error.message : 'Email could not be sent';
    for (const item of items) outcome.set(item.key, why);
    return outcome;
  }
  let mailer: Awaited<ReturnType<typeof openMailer>> | null = null;
  try {
    mailer = await openMailer(settings.smtp, {
      ...ctx.mailer.options,
      allowedNetworks: ctx.config.SMTP_ALLOWED_NETWORKS,
    });
    for (const item of items) {
      if (!item.to) {
        outcome.set(item.key, 'No email address');
        continue;
      }
      try {
        await mailer.send({
          from: { name: PORTAL_NAME, address: settings.fromAddress },
          to: item.to,
          ...item.build(settings.portalUrl),
        });
        outcome.set(item.key, null);
      } catch (error) {
        outcome.set(item.key, describeMailError(error));
      }
    }
  } catch (error) {
    const why = describeMailError(error);
    for (const item of items) if (!outcome.has(item.key)) outcome.set(item.key, why);
  } finally {
    mailer?.close();
  }
  return outcome;
}

/** 400 unless the month is within REMINDER_MONTH_WINDOW months of this one (ORG_TIMEZONE). */
function checkReminderMonth(month: string, today: string): void {
  const thisMonth = `${today.slice(0, 7)}-01`;
  const first = addMonths(thisMonth, -REMINDER_MONTH_WINDOW).slice(0, 7);
  const last = addMonths(thisMonth, REMINDER_MONTH_WINDOW).slice(0, 7);
  if (month < first || month > last) {
    throw badRequest('Reminders are only about months within a year of this one', {
      month: [`Choose a month from ${monthLabel(`${first}-01`)} to ${monthLabel(`${last}-01`)}`],
    });
  }
}

async function waitForLock(ctx: Pick<ReminderDeps, 'database'>, waitMs: number): Promise<JobLock | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = await tryJobLock(ctx.database, 'reminders');
    if (lock || Date.now() >= deadline) return lock;
    await sleep(200);
  }
}

export interface SendOptions {
  /** `yyyy-MM` */
  month: string;
  /** only these facilitators; undefined: every partial and missing one */
  userIds?: number[] | undefined;
  trigger: 'staff' | 'automatic';
  /** the staff member sending; null for the automatic reminder */
  actorId: number | null;
}

/**
 * Email the facilitators who are partial or missing for a month. One run at a time across every
 * instance (the 'reminders' job lock), so the once-a-day check and the record of what was sent cannot
 * interleave: whoever comes second finds the first run's rows and skips those people. A row is
 * written only after the SMTP server accepted that message, so a failure leaves nothing recorded for
 * that person and they are tried again next time.
 */
export async function sendReminders(ctx: ReminderDeps, options: SendOptions): Promise<SendRemindersResponse> {
  checkReminderMonth(options.month, todayIn(ctx.config.ORG_TIMEZONE, ctx.now()));
  const mail = await loadMailSettings(ctx);
  const lock = await waitForLock(ctx, LOCK_WAIT_MS);
  if (!lock) throw conflict('Reminders are being sent right now. Please try again in a minute.');
  try {
    const now = ctx.now();
    const timeZone = ctx.config.ORG_TIMEZONE;
    const today = todayIn(timeZone, now);
    const report = await computeCompleteness(ctx.db, { month: options.month, timeZone, now });
    const label = report.label;
    const byId = new Map(report.facilitators.map((f) => [f.userId, f]));

    let targets = report.facilitators.filter((f) => f.status !== 'complete');
    if (options.userIds) {
      const ids = [...new Set(options.userIds)];
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0) {
        throw badRequest('Reminders go to facilitators only', {
          userIds: [`Not a facilitator: ${unknown.slice(0, 10).join(', ')}`],
        });
      }
      targets = ids.map((id) => byId.get(id)!);
    }

    const remindedToday = new Set(
      (
        await ctx.db
          .selectDistinct({ userId: reminderSends.userId })
          .from(reminderSends)
          .where(eq(reminderSends.sentOn, today))
      ).map((row) => row.userId),
    );
    const leavers = new Set(
      (await ctx.db.select({ id: users.id }).from(users).where(isNotNull(users.deactivatedAt))).map(
        (row) => row.id,
      ),
    );
    const results: ReminderResult[] = [];
    const toSend: { result: ReminderResult; setDays: number; weekdays: number; email: string }[] = [];
    for (const f of targets) {
      const base = { userId: f.userId, name: f.name, email: f.email };
      if (leavers.has(f.userId)) {
        results.push({ ...base, outcome: 'skipped', reason: 'The account is deactivated' });
      } else if (f.status === 'complete') {
        results.push({ ...base, outcome: 'skipped', reason: `Availability for ${label} is complete` });
      } else if (remindedToday.has(f.userId)) {
        results.push({ ...base, outcome: 'skipped', reason: ALREADY_REMINDED_TODAY });
      } else if (!(await notify(ctx, f.userId, 'availability-reminder', '/')).email) {
        results.push({ ...base, outcome: 'skipped', reason: PUSH_ONLY });
      } else if (!f.email) {
        results.push({ ...base, outcome: 'skipped', reason: 'No email address' });
      } else {
        const result: ReminderResult = { ...base, outcome: 'sent', reason: null };
        results.push(result);
        toSend.push({ result, setDays: f.setDays, weekdays: f.weekdays, email: f.email });
      }
    }

    if (toSend.length > 0) {
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
          // the server cannot be reached, is not allowed, or refuses us: no message would get through
          broken = describeMailError(error);
          ctx.log.warn({ code: (error as { code?: unknown })?.code }, 'email server not usable');
        }
        for (const item of toSend) {
          if (broken || !mailer) {
            Object.assign(item.result, { outcome: 'failed', reason: broken });
            continue;
          }
          const message = reminderMessage({
            name: item.result.name,
            monthLabel: label,
            setDays: item.setDays,
            weekdays: item.weekdays,
            portalUrl: mail.portalUrl,
          });
          try {
            await mailer.send({
              from: { name: PORTAL_NAME, address: mail.fromAddress },
              to: item.email,
              ...message,
            });
          } catch (error) {
            Object.assign(item.result, { outcome: 'failed', reason: describeMailError(error) });
            continue;
          }
          await ctx.db
            .insert(reminderSends)
            .values({
              userId: item.result.userId,
              month: options.month,
              sentOn: today,
              sentAt: now,
              email: item.email,
              trigger: options.trigger,
              sentBy: options.actorId,
            })
            .onConflictDoNothing()
            .catch((error: unknown) => {
              // the message went out; only its record is missing (the database went away)
              ctx.log.warn({ err: describeError(error) }, 'reminder not recorded');
            });
        }
      } finally {
        mailer?.close();
      }
    }

    const count = (outcome: ReminderResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
    const response: SendRemindersResponse = {
      month: options.month,
      label,
      sent: count('sent'),
      skipped: count('skipped'),
      failed: count('failed'),
      results,
    };
    ctx.log.info(
      {
        month: options.month,
        trigger: options.trigger,
        sent: response.sent,
        skipped: response.skipped,
        failed: response.failed,
      },
      'availability reminders',
    );
    return response;
  } finally {
    await lock.release();
  }
}

// ---------------------------------------------------------------------------------------------------
// The automatic reminder (run by the scheduler, jobs/scheduler.ts)

export const AUTOMATIC_REMINDER_JOB = 'automatic-reminders';
/** After a run with failures (email server down), the same day's run is tried again this much later. */
export const AUTOMATIC_RETRY_MS = 60 * 60 * 1000;

export type AutomaticOutcome =
  | 'off'
  | 'not-configured'
  | 'not-today'
  | 'not-yet'
  | 'done'
  | 'sent'
  | 'failed';

async function readAutomaticState(ctx: Pick<ReminderDeps, 'db'>) {
  const [row] = await ctx.db
    .select()
    .from(schedulerState)
    .where(eq(schedulerState.name, AUTOMATIC_REMINDER_JOB));
  return row;
}

async function automaticDoneToday(ctx: Pick<ReminderDeps, 'config' | 'db' | 'now'>): Promise<boolean> {
  const state = await readAutomaticState(ctx);
  const tz = ctx.config.ORG_TIMEZONE;
  return Boolean(state?.finishedAt && todayIn(tz, state.finishedAt) === todayIn(tz, ctx.now()));
}

/**
 * One look at the automatic reminder: on the chosen day of the month (ORG_TIMEZONE), from
 * AUTO_REMINDER_HOUR, email everyone partial or missing for the chosen month, once. A run whose
 * messages failed is tried again an hour later the same day; people it did reach are skipped then by
 * the once-a-day rule. Never throws.
 */
export async function runAutomaticReminders(ctx: ReminderDeps): Promise<AutomaticOutcome> {
  const row = await readRow(ctx.db);
  if (!row?.autoEnabled) return 'off';
  if (!isConfigured(row)) return 'not-configured';
  const now = ctx.now();
  const tz = ctx.config.ORG_TIMEZONE;
  const local = localTime(now, tz);
  if (local.day !== row.autoDay) return 'not-today';
  if (local.minute < AUTO_REMINDER_HOUR * 60) return 'not-yet';
  const today = todayIn(tz, now);
  const state = await readAutomaticState(ctx);
  if (state?.finishedAt && todayIn(tz, state.finishedAt) === today) {
    const retry = state.lastError && now.getTime() - state.finishedAt.getTime() >= AUTOMATIC_RETRY_MS;
    if (!retry) return 'done';
  }
  const month = automaticMonthFor(today, row.autoMonth as AutoMonth);
  const write = (values: Partial<typeof schedulerState.$inferInsert>) =>
    ctx.db
      .insert(schedulerState)
      .values({ name: AUTOMATIC_REMINDER_JOB, ...values })
      .onConflictDoUpdate({ target: schedulerState.name, set: values });
  try {
    const result = await sendReminders(ctx, { month, trigger: 'automatic', actorId: null });
    await write({
      startedAt: now,
      finishedAt: ctx.now(),
      lastResult: { month, sent: result.sent, skipped: result.skipped, failed: result.failed },
      lastError: result.failed > 0 ? `${result.failed} reminder(s) could not be sent` : null,
    });
    return result.failed > 0 ? 'failed' : 'sent';
  } catch (error) {
    const message = describeError(error);
    await write({ startedAt: now, finishedAt: ctx.now(), lastError: message }).catch(() => {});
    ctx.log.warn({ err: message }, 'automatic reminder failed');
    return 'failed';
  }
}
