/**
 * SharePoint work that keeps failing, kept where every instance and the staff screens see it: one
 * scheduler_state row per area (`sharepoint-problem:bookings`, `sharepoint-problem:availability`),
 * written when a run fails and removed by the next run that succeeds. Each problem carries what staff
 * can do about it, derived from the HTTP status and Graph code (never from the message text).
 */
import { eq, like, sql } from 'drizzle-orm';
import type { ListKind } from '../../shared/schemas/sharepoint-columns';
import type { Queryable } from '../db/client';
import { schedulerState } from '../db/schema';
import { LIST_LABELS } from './column-mapping';
import { describeError, isSharePointError } from './errors';
import { listNameOf, type SharePointSession } from './session';

export type ProblemArea = 'bookings' | 'availability';

export interface ProblemReport {
  message: string;
  action: string;
}

const PREFIX = 'sharepoint-problem:';
const AREA_LIST: Record<ProblemArea, ListKind> = { bookings: 'bookings', availability: 'availability' };
const AREA_WORK: Record<ProblemArea, string> = {
  bookings: 'Reading bookings from SharePoint',
  availability: 'Writing availability to SharePoint',
};

const RETRIES_ALONE = 'The portal tries again by itself, with growing pauses; nothing is lost meanwhile.';

/** What failed and what staff can do, for an error of one area's work. */
export async function problemFor(
  session: SharePointSession,
  area: ProblemArea,
  error: unknown,
): Promise<ProblemReport> {
  const kind = AREA_LIST[area];
  const listName = listNameOf(session.settings, kind);
  const list = `the ${LIST_LABELS[kind]} "${listName}"`;
  const message = `${AREA_WORK[area]} failed: ${describeError(error)}`;
  if (!isSharePointError(error)) return { message, action: RETRIES_ALONE };
  const { status, kind: errorKind } = error;

  if (errorKind === 'auth' && !error.retryable) {
    return {
      message,
      action:
        'Check the tenant ID, client ID and the client secret or certificate on the settings page (secrets and certificates expire), then use Test Connection.',
    };
  }
  if (errorKind === 'not-configured') {
    if (status === 404) {
      return {
        message,
        action: `Create ${list} on the site, or correct the list name on the settings page.`,
      };
    }
    return {
      message,
      action: 'Complete the SharePoint settings on the settings page, then use Test Connection.',
    };
  }
  if (status === 403) {
    const access = area === 'availability' ? 'write' : 'read';
    return {
      message,
      action: `Give the app registration ${access} access to the site ${session.settings.siteUrl} (an administrator grants Sites.Selected with ${access} permission, or Sites.ReadWrite.All), then use Test Connection.`,
    };
  }
  if (status === 404) {
    return {
      message,
      action: `Check the site URL and that ${list} still exists, on the settings page.`,
    };
  }
  // Past 5,000 items SharePoint refuses filters on columns without an index, whatever the client sends.
  if (status === 400 || status === 500) {
    let unindexed: string[] = [];
    try {
      unindexed = await session.unindexedFilterColumns(kind);
    } catch {
      // the list itself could not be read: the message says why
    }
    if (unindexed.length > 0) {
      return {
        message,
        action: `Index the column ${unindexed.join(', ')} of ${list} (List settings → Indexed columns). Work resumes by itself.`,
      };
    }
  }
  if (error.retryable || errorKind === 'network') return { message, action: RETRIES_ALONE };
  return {
    message,
    action: `Check ${list} and its columns under Columns on the settings page, and use Test Connection. ${RETRIES_ALONE}`,
  };
}

/** Remember a failure; `since` stays the time of the first failure in a row. */
export async function recordProblem(
  db: Queryable,
  area: ProblemArea,
  report: ProblemReport,
  now: Date,
): Promise<void> {
  await db
    .insert(schedulerState)
    .values({
      name: `${PREFIX}${area}`,
      startedAt: now,
      finishedAt: now,
      lastError: report.message.slice(0, 2000),
      lastResult: { action: report.action },
    })
    .onConflictDoUpdate({
      target: schedulerState.name,
      set: {
        finishedAt: now,
        lastError: report.message.slice(0, 2000),
        lastResult: { action: report.action },
      },
    });
}

export async function clearProblem(db: Queryable, area: ProblemArea): Promise<void> {
  await db.delete(schedulerState).where(eq(schedulerState.name, `${PREFIX}${area}`));
}

export interface StoredProblem extends ProblemReport {
  area: ProblemArea;
  since: Date;
  lastFailedAt: Date;
}

export async function readProblems(db: Queryable): Promise<StoredProblem[]> {
  const rows = await db
    .select()
    .from(schedulerState)
    .where(like(schedulerState.name, `${PREFIX}%`))
    .orderBy(sql`${schedulerState.name}`);
  const problems: StoredProblem[] = [];
  for (const row of rows) {
    const area = row.name.slice(PREFIX.length);
    if (area !== 'bookings' && area !== 'availability') continue;
    const action = (row.lastResult as { action?: unknown } | null)?.action;
    problems.push({
      area,
      message: row.lastError ?? '',
      action: typeof action === 'string' ? action : RETRIES_ALONE,
      since: row.startedAt ?? row.finishedAt ?? new Date(0),
      lastFailedAt: row.finishedAt ?? new Date(0),
    });
  }
  return problems;
}
