/**
 * "Test Connection": token, site, each configured list, and the columns the portal needs, in that
 * order. The message says in words what could not be done, why, and what to check, or what was found.
 * The same steps feed the settings page's column check (`checkSharePointColumns`), which shows every
 * field's match.
 */
import type { ColumnCheckResult, ListColumnsReport, ListKind } from '../../shared/schemas/sharepoint-columns';
import { type ColumnInfo, LIST_LABELS, matchColumns, unindexedFilterColumns } from './column-mapping';
import type {
  ColumnChecker,
  ConnectionResult,
  ConnectionTester,
  ResolvedSharePointSettings,
} from './connection';
import { describeError, isSharePointError } from './errors';
import {
  credentialFrom,
  listNameOf,
  type SharePointConfig,
  SharePointSession,
  type SharePointTuning,
} from './session';

function failure(message: string): ConnectionResult {
  return { success: false, message };
}

function explain(error: unknown): string {
  if (!isSharePointError(error)) return describeError(error);
  if (error.status === 403)
    return `${error.message}. The app or account has no access to this site (check its permissions, e.g. Sites.Selected grant).`;
  return error.message;
}

type Reached = { session: SharePointSession; siteId: string } | { failed: ConnectionResult };

/** The settings, a token, the site. */
async function reachSite(
  settings: ResolvedSharePointSettings,
  config: SharePointConfig,
  tuning: SharePointTuning,
): Promise<Reached> {
  const missing: string[] = [];
  if (!settings.siteUrl) missing.push('site URL');
  if (!settings.tenantId) missing.push('tenant ID');
  if (!settings.clientId) missing.push('client ID');
  if (missing.length > 0)
    return { failed: failure(`The settings are not complete: fill in the ${missing.join(', ')}.`) };
  const credential = credentialFrom(settings);
  if (typeof credential === 'string')
    return { failed: failure(`The settings are not complete: ${credential}`) };

  // A connection test should answer quickly: few retries, short waits.
  const session = new SharePointSession(settings, config, {
    ...tuning,
    timings: {
      maxAttempts: 2,
      baseDelayMs: 500,
      maxDelayMs: 2000,
      requestTimeoutMs: 15_000,
      ...tuning.timings,
    },
  });

  try {
    await session.tokens.getToken();
  } catch (error) {
    const how =
      credential.grant === 'password'
        ? 'username and password (ROPC; accounts with MFA cannot use it)'
        : 'client ID and secret';
    return {
      failed: failure(
        `Could not sign in to Microsoft with these settings: ${explain(error)} — check the tenant ID and the ${how}.`,
      ),
    };
  }

  try {
    return { session, siteId: await session.siteId() };
  } catch (error) {
    if (isSharePointError(error) && error.status === 404) {
      return {
        failed: failure(
          `Signed in, but no SharePoint site was found at ${settings.siteUrl}: check the site URL.`,
        ),
      };
    }
    return { failed: failure(`Signed in, but the site could not be opened: ${explain(error)}`) };
  }
}

function configuredLists(settings: ResolvedSharePointSettings): ListKind[] {
  const kinds: ListKind[] = ['availability', 'bookings'];
  if (settings.facilitatorListName) kinds.push('facilitators');
  if (settings.schoolsListName) kinds.push('schools');
  return kinds;
}

/** One list: find it, read its columns, match every portal field. */
async function checkList(
  session: SharePointSession,
  siteId: string,
  kind: ListKind,
): Promise<ListColumnsReport> {
  const listName = listNameOf(session.settings, kind);
  const report: ListColumnsReport = {
    list: kind,
    label: LIST_LABELS[kind],
    listName,
    error: null,
    columns: [],
    fields: [],
    mustIndex: [],
  };
  if (!listName) return { ...report, error: 'No list name is set: enter it above.' };
  let listId: string | undefined;
  try {
    listId = await session.client.findList(siteId, listName);
  } catch (error) {
    return { ...report, error: `The site's lists could not be read: ${explain(error)}` };
  }
  if (!listId)
    return {
      ...report,
      error: `The site has no list called "${listName}". Check the name: it must match the list's name in SharePoint.`,
    };
  let columns: ColumnInfo[];
  try {
    columns = await session.client.columns(siteId, listId);
  } catch (error) {
    return { ...report, error: `The list's columns could not be read: ${explain(error)}` };
  }
  const fields = matchColumns(kind, columns, session.settings.columnMapping[kind]);
  return {
    ...report,
    columns: columns
      .filter((c) => !c.hidden)
      .map(({ name, displayName, type, indexed }) => ({ name, displayName, type, indexed })),
    fields,
    mustIndex: unindexedFilterColumns(kind, fields, columns),
  };
}

/** Every configured list with each portal field's column: what the settings page shows. */
export async function checkSharePointColumns(
  settings: ResolvedSharePointSettings,
  config: SharePointConfig,
  tuning: SharePointTuning = {},
): Promise<ColumnCheckResult> {
  const reached = await reachSite(settings, config, tuning);
  if ('failed' in reached) return { reached: false, message: reached.failed.message, lists: [] };
  const lists: ListColumnsReport[] = [];
  for (const kind of configuredLists(settings))
    lists.push(await checkList(reached.session, reached.siteId, kind));
  return { reached: true, message: 'Signed in and found the site.', lists };
}

export async function testSharePointConnection(
  settings: ResolvedSharePointSettings,
  config: SharePointConfig,
  tuning: SharePointTuning = {},
): Promise<ConnectionResult> {
  const reached = await reachSite(settings, config, tuning);
  if ('failed' in reached) return reached.failed;

  const checked: string[] = [];
  const indexNotes: string[] = [];
  for (const kind of configuredLists(settings)) {
    const report = await checkList(reached.session, reached.siteId, kind);
    const where = `${report.label} "${report.listName}"`;
    if (report.error) return { success: false, message: `${where}: ${report.error}` };
    // Every unmapped required field and every type mismatch, so one test shows all there is to fix.
    const problems = report.fields
      .filter((f) => f.problem !== null && (f.required || f.problem !== 'missing'))
      .map((f) => f.message);
    if (problems.length > 0) {
      return {
        success: false,
        message: `The ${where} lacks columns the portal needs: ${problems.join(' ')} Choose the columns under Columns on this page.`,
      };
    }
    for (const column of report.mustIndex) {
      indexNotes.push(
        `Index the column ${column} of the ${where} (List settings → Indexed columns): the portal looks items up by it, and SharePoint refuses such look-ups once a list passes 5,000 items.`,
      );
    }
    checked.push(`"${report.listName}"`);
  }
  return {
    success: true,
    message: [
      `Connection to SharePoint successful! Signed in, found the site and the lists ${checked.join(', ')} with the columns the portal needs.`,
      ...indexNotes,
    ].join(' '),
  };
}

export function createColumnChecker(config: SharePointConfig, tuning: SharePointTuning = {}): ColumnChecker {
  return (settings) => checkSharePointColumns(settings, config, tuning);
}

export function createConnectionTester(
  config: SharePointConfig,
  tuning: SharePointTuning = {},
): ConnectionTester {
  return (settings) => testSharePointConnection(settings, config, tuning);
}
