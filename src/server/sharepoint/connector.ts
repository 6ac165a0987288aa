/**
 * The app's SharePoint connector: turns the saved settings into a session (reused while they stay
 * the same, so tokens and resolved ids are cached) and offers the operations routes and jobs need.
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { drainAvailabilityRemovals } from './availability-removals';
import { type AcceptanceWriteBack, type BookingWritesResult, drainBookingWrites } from './booking-outbox';
import { type BookingsRefreshOutcome, refreshBookings } from './bookings-refresh';
import type { ColumnChecker, ConnectionTester } from './connection';
import { createColumnChecker, createConnectionTester } from './connection-test';
import { describeError, failureKind, isSharePointError, type SharePointFailureKind } from './errors';
import {
  type FacilitatorImportResult,
  importFacilitators,
  type RecordImportedAccounts,
} from './facilitators-import';
import { OutboxWakeUp } from './outbox';
import {
  DEFAULT_OUTBOX_OPTIONS,
  type DrainResult,
  drainOutboxOnce,
  type OutboxOptions,
  type OutboxRow,
} from './outbox-worker';
import { clearProblem, problemFor, recordProblem } from './problems';
import { missingSettings, SharePointSession, type SharePointTuning, settingsFingerprint } from './session';
import { loadSharePointSettings, StoredSecretError } from './settings';

export interface SharePointRuntimeOptions extends SharePointTuning {
  outbox?: Partial<OutboxOptions>;
}

/** What the connector needs from the app: the database, the secret its settings are sealed with, the clock. */
export interface SharePointDeps {
  db: Db;
  appSecret: string;
  config: Config;
  now: () => Date;
  /** told of every failed bookings refresh and outbox round (the metrics count them) */
  countFailure?: (area: 'bookings' | 'availability', kind: SharePointFailureKind) => void;
}

/**
 * The SharePoint adapter the app holds (plugins/sharepoint.ts decorates the app with it). Its ports:
 * queue availability days and Bookings writes inside the caller's transaction (sharepoint/outbox.ts)
 * and deliver them, pull bookings, import facilitators, test a connection; callers hand in what it
 * must not know (the history, what an accepted offer means).
 */
export class SharePointConnector {
  private cached: { fingerprint: string; session: SharePointSession } | undefined;
  /** rows a failed outbox round of this process left leased (outbox-worker.ts hands them back) */
  private readonly abandonedLeases: OutboxRow[] = [];
  /** wakes this app's drain loop when days are queued (sharepoint/outbox.ts) */
  readonly outboxWakeUp = new OutboxWakeUp();

  constructor(
    private readonly ctx: SharePointDeps,
    readonly options: SharePointRuntimeOptions = {},
  ) {}

  /** The current session, or why there is none (settings missing or unreadable). */
  async sessionOrReason(): Promise<{ session: SharePointSession } | { reason: string }> {
    let settings: Awaited<ReturnType<typeof loadSharePointSettings>>;
    try {
      settings = await loadSharePointSettings(this.ctx.db, this.ctx.appSecret);
    } catch (error) {
      if (error instanceof StoredSecretError) return { reason: error.message };
      throw error;
    }
    const missing = missingSettings(settings);
    if (missing || !settings) return { reason: missing ?? 'SharePoint is not configured.' };
    const fingerprint = settingsFingerprint(settings, this.ctx.config);
    if (this.cached?.fingerprint !== fingerprint) {
      this.cached = { fingerprint, session: new SharePointSession(settings, this.ctx.config, this.options) };
    }
    return { session: this.cached.session };
  }

  async session(): Promise<SharePointSession | null> {
    const found = await this.sessionOrReason();
    return 'session' in found ? found.session : null;
  }

  /** A session, or a 409 saying what to configure. */
  async requireSession(): Promise<SharePointSession> {
    const found = await this.sessionOrReason();
    if ('reason' in found) throw new AppError(409, found.reason);
    return found.session;
  }

  /** One bookings refresh, not coordinated: use jobs/refresh-job.ts (it serialises and records state). */
  /** Also keeps the bookings problem staff see (sharepoint/problems.ts) up to date. */
  /** The outcome holds the facilitators' booking changes for the caller to tell them (never to store). */
  async refreshBookings(onProcessing?: () => void, reconcile = false): Promise<BookingsRefreshOutcome> {
    const session = await this.requireSession();
    return toAppError('Could not refresh bookings', async () => {
      let result: BookingsRefreshOutcome;
      try {
        result = await refreshBookings(
          this.ctx.db,
          session,
          this.ctx.config.ORG_TIMEZONE,
          onProcessing,
          reconcile,
          this.ctx.now,
        );
      } catch (error) {
        this.ctx.countFailure?.('bookings', failureKind(error));
        if (isSharePointError(error)) {
          const report = await problemFor(session, 'bookings', error);
          await recordProblem(this.ctx.db, 'bookings', report, this.ctx.now()).catch(() => {});
        }
        throw error;
      }
      await clearProblem(this.ctx.db, 'bookings');
      return result;
    });
  }

  /** `recordAccounts`: the caller's history of the accounts it creates or changes. */
  async importFacilitators(recordAccounts: RecordImportedAccounts): Promise<FacilitatorImportResult> {
    const session = await this.requireSession();
    if (!session.settings.facilitatorListName) {
      throw new AppError(409, 'No Facilitators list is set in the SharePoint settings.');
    }
    return toAppError('Could not import facilitators', () =>
      importFacilitators(this.ctx.db, session, recordAccounts),
    );
  }

  /** One outbox round; a failing round is kept as the availability problem, a clean one clears it. */
  async drainOutbox(): Promise<DrainResult> {
    const session = await this.session();
    // an erased person's items first; a failure here is tried again next round and holds nothing up
    await drainAvailabilityRemovals(this.ctx.db, session, () => this.ctx.now()).catch(() => {});
    const result = await drainOutboxOnce(
      this.ctx.db,
      session,
      () => this.ctx.now(),
      this.options.outbox,
      this.abandonedLeases,
    );
    if (result.failureKind) this.ctx.countFailure?.('availability', result.failureKind);
    if (result.problem) await recordProblem(this.ctx.db, 'availability', result.problem, this.ctx.now());
    else if (result.delivered > 0) await clearProblem(this.ctx.db, 'availability');
    return result;
  }

  /**
   * One round of writes to the Bookings list, with the availability outbox's lease and backoff.
   * `acceptances`: the offers feature's port for what an acceptance writes and what a refusal undoes.
   */
  async drainBookingWrites(acceptances: AcceptanceWriteBack): Promise<BookingWritesResult> {
    return drainBookingWrites(this.ctx.db, await this.session(), () => this.ctx.now(), acceptances, {
      ...DEFAULT_OUTBOX_OPTIONS,
      ...this.options.outbox,
    });
  }

  connectionTester(): ConnectionTester {
    return createConnectionTester(this.ctx.config, this.options);
  }

  columnChecker(): ColumnChecker {
    return createColumnChecker(this.ctx.config, this.options);
  }
}

/** SharePoint failures become API errors with a message staff can act on. */
async function toAppError<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isSharePointError(error)) {
      if (error.kind === 'not-configured') throw new AppError(409, `${what}: ${error.message}`);
      throw new AppError(503, `${what}: ${describeError(error)}`);
    }
    throw error;
  }
}
