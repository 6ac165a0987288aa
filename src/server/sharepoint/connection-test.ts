/**
 * "Test Connection": token, site, each configured list, and the columns the portal needs, in that
 * order. The message says which step failed and why, or what was found.
 */
import type {
  ConnectionResult,
  ConnectionTester,
  ResolvedSharePointSettings,
} from '../modules/settings/connection';
import { describeError, isSharePointError } from './errors';
import { REQUIRED_COLUMNS } from './fields';
import { credentialFrom, type SharePointConfig, SharePointSession, type SharePointTuning } from './session';

type ListKind = keyof typeof REQUIRED_COLUMNS;

const LIST_LABELS: Record<ListKind, string> = {
  availability: 'Availability list',
  bookings: 'Bookings list',
  facilitators: 'Facilitators list',
  schools: 'Schools list',
};

function failure(step: string, reason: string): ConnectionResult {
  return { success: false, message: `${step} failed: ${reason}` };
}

function explain(error: unknown): string {
  if (!isSharePointError(error)) return describeError(error);
  if (error.status === 403)
    return `${error.message}. The app or account has no access to this site (check its permissions, e.g. Sites.Selected grant).`;
  return error.message;
}

export async function testSharePointConnection(
  settings: ResolvedSharePointSettings,
  config: SharePointConfig,
  tuning: SharePointTuning = {},
): Promise<ConnectionResult> {
  // Step 1: the settings themselves.
  const missing: string[] = [];
  if (!settings.siteUrl) missing.push('site URL');
  if (!settings.tenantId) missing.push('tenant ID');
  if (!settings.clientId) missing.push('client ID');
  if (missing.length > 0) return failure('Step 1 (settings)', `the ${missing.join(', ')} must be filled in.`);
  const credential = credentialFrom(settings);
  if (typeof credential === 'string') return failure('Step 1 (settings)', credential);

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

  // Step 2: a token.
  try {
    await session.tokens.getToken();
  } catch (error) {
    const how =
      credential.grant === 'password'
        ? 'username and password (ROPC; accounts with MFA cannot use it)'
        : 'client ID and secret';
    return failure('Step 2 (sign-in)', `${explain(error)} — check the tenant ID and the ${how}.`);
  }

  // Step 3: the site.
  let siteId: string;
  try {
    siteId = await session.siteId();
  } catch (error) {
    if (isSharePointError(error) && error.status === 404) {
      return failure('Step 3 (site)', `no site was found at ${settings.siteUrl}.`);
    }
    return failure('Step 3 (site)', explain(error));
  }

  // Step 4: the lists and their columns.
  const lists: Array<[ListKind, string]> = [
    ['availability', settings.availabilityListName],
    ['bookings', settings.bookingsListName],
  ];
  if (settings.facilitatorListName) lists.push(['facilitators', settings.facilitatorListName]);
  if (settings.schoolsListName) lists.push(['schools', settings.schoolsListName]);
  const checked: string[] = [];
  for (const [kind, name] of lists) {
    const label = LIST_LABELS[kind];
    if (!name) return failure(`Step 4 (${label})`, 'no list name is set.');
    let listId: string | undefined;
    try {
      listId = await session.client.findList(siteId, name);
    } catch (error) {
      return failure(`Step 4 (${label} "${name}")`, explain(error));
    }
    if (!listId) return failure(`Step 4 (${label})`, `the site has no list called "${name}".`);
    let columns: Array<{ name: string; displayName?: string }>;
    try {
      columns = await session.client.columns(siteId, listId);
    } catch (error) {
      return failure(`Step 5 (columns of "${name}")`, explain(error));
    }
    const names = new Set(columns.map((c) => c.name));
    const absent = REQUIRED_COLUMNS[kind].filter((column) => !names.has(column));
    if (absent.length > 0) {
      return failure(
        `Step 5 (columns of "${name}")`,
        `the list has no column${absent.length > 1 ? 's' : ''} ${absent.map((c) => `"${c}"`).join(', ')} (internal names).`,
      );
    }
    checked.push(`"${name}"`);
  }
  return {
    success: true,
    message: `Connection to SharePoint successful! Signed in, found the site and the lists ${checked.join(', ')} with the columns the portal needs.`,
  };
}

export function createConnectionTester(
  config: SharePointConfig,
  tuning: SharePointTuning = {},
): ConnectionTester {
  return (settings) => testSharePointConnection(settings, config, tuning);
}
