import { eq } from 'drizzle-orm';
import {
  type SettingsBody,
  type SettingsResponse,
  settingsBody,
  type TestConnectionResult,
} from '../../../shared/schemas/settings';
import type { ColumnCheckResult } from '../../../shared/schemas/sharepoint-columns';
import { decryptSecret, deriveKey, encryptSecret } from '../../crypto';
import type { Db, Queryable } from '../../db/client';
import { sharepointSettings } from '../../db/schema';
import { type ChangeBy, recordChanges } from '../history/record';
import type { ColumnChecker, ConnectionTester, ResolvedSharePointSettings } from './connection';

type SettingsRow = typeof sharepointSettings.$inferSelect;
type SecretField = 'password' | 'clientSecret';

const SETTINGS_ID = 1;
/** A connection test that has not answered by then counts as failed. */
export const CONNECTION_TEST_TIMEOUT_MS = 30_000;
const SUCCESS_MESSAGE = 'Connection to SharePoint successful!';
const FAILURE_MESSAGE = 'Connection test failed';

const settingsKey = (appSecret: string) => deriveKey(appSecret, 'sharepoint-settings');

const SECRET_LABELS: Record<SecretField, string> = { password: 'password', clientSecret: 'client secret' };

/** A stored secret that no longer decrypts: APP_SECRET changed, or the row was edited by hand. */
export class StoredSecretError extends Error {
  constructor(readonly field: SecretField) {
    super(
      `The stored SharePoint ${SECRET_LABELS[field]} could not be read (was APP_SECRET changed?). Enter it again and save.`,
    );
    this.name = 'StoredSecretError';
  }
}

/** What the settings page shows: never a secret, only whether one is stored. */
export function toSettingsResponse(row: SettingsRow | undefined): SettingsResponse {
  return {
    siteUrl: row?.siteUrl ?? '',
    availabilityListName: row?.availabilityListName ?? '',
    bookingsListName: row?.bookingsListName ?? '',
    facilitatorListName: row?.facilitatorListName ?? '',
    schoolsListName: row?.schoolsListName ?? '',
    tenantId: row?.tenantId ?? '',
    clientId: row?.clientId ?? '',
    username: row?.username ?? '',
    hasPassword: Boolean(row?.passwordEncrypted),
    hasClientSecret: Boolean(row?.clientSecretEncrypted),
    columnMapping: row?.columnMapping ?? {},
  };
}

async function readRow(db: Queryable, lock = false): Promise<SettingsRow | undefined> {
  const query = db.select().from(sharepointSettings).where(eq(sharepointSettings.id, SETTINGS_ID));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function getSettings(db: Queryable): Promise<SettingsResponse> {
  return toSettingsResponse(await readRow(db));
}

/**
 * Save the settings. A blank password or client secret keeps the stored one. `by`: who saved them,
 * for the history (routes pass it; setup scripts and fixtures do not and are not recorded). The
 * history gets the plain fields and, for a secret, only that it changed.
 */
export async function saveSettings(
  db: Db,
  appSecret: string,
  input: SettingsBody,
  by?: ChangeBy,
): Promise<SettingsResponse> {
  const data = settingsBody.parse(input);
  const key = settingsKey(appSecret);
  return db.transaction(async (tx) => {
    const existing = await readRow(tx, true);
    const values = {
      siteUrl: data.siteUrl,
      availabilityListName: data.availabilityListName,
      bookingsListName: data.bookingsListName,
      facilitatorListName: data.facilitatorListName,
      schoolsListName: data.schoolsListName,
      tenantId: data.tenantId,
      clientId: data.clientId,
      username: data.username,
      clientSecretEncrypted: data.clientSecret
        ? encryptSecret(key, data.clientSecret)
        : (existing?.clientSecretEncrypted ?? null),
      passwordEncrypted: data.password
        ? encryptSecret(key, data.password)
        : (existing?.passwordEncrypted ?? null),
      // absent: the stored corrections stay (clients that predate the column mapping keep them)
      columnMapping: data.columnMapping ?? existing?.columnMapping ?? {},
      // delta links belong to the lists of one site; another site starts from a full read
      deltaLinks: existing && existing.siteUrl === data.siteUrl ? existing.deltaLinks : {},
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(sharepointSettings)
      .values({ id: SETTINGS_ID, ...values })
      .onConflictDoUpdate({ target: sharepointSettings.id, set: values })
      .returning();
    if (by) {
      const before = existing ? toPlainSettings(existing) : null;
      const after = toPlainSettings(row!);
      const secrets = {
        ...(data.password ? { password: 'changed' } : {}),
        ...(data.clientSecret ? { clientSecret: 'changed' } : {}),
      };
      if (JSON.stringify(before) !== JSON.stringify(after) || Object.keys(secrets).length > 0) {
        await recordChanges(tx, [
          {
            entity: 'settings',
            action: existing ? 'update' : 'create',
            subjectUserId: null,
            actorId: by.actorId,
            via: by.via,
            before,
            after: { ...after, ...secrets },
          },
        ]);
      }
    }
    return toSettingsResponse(row);
  });
}

function decryptField(appSecret: string, sealed: string | null, field: SecretField): string {
  if (!sealed) return '';
  try {
    return decryptSecret(settingsKey(appSecret), sealed);
  } catch {
    throw new StoredSecretError(field);
  }
}

/**
 * The saved settings with their secrets decrypted, for server-side use (the SharePoint connector);
 * null when nothing has been saved. Throws StoredSecretError when a stored secret cannot be read.
 */
export async function loadSharePointSettings(
  db: Queryable,
  appSecret: string,
): Promise<ResolvedSharePointSettings | null> {
  const row = await readRow(db);
  if (!row) return null;
  return {
    ...toPlainSettings(row),
    clientSecret: decryptField(appSecret, row.clientSecretEncrypted, 'clientSecret'),
    password: decryptField(appSecret, row.passwordEncrypted, 'password'),
  };
}

function toPlainSettings(row: SettingsRow) {
  return {
    siteUrl: row.siteUrl,
    availabilityListName: row.availabilityListName,
    bookingsListName: row.bookingsListName,
    facilitatorListName: row.facilitatorListName,
    schoolsListName: row.schoolsListName,
    tenantId: row.tenantId,
    clientId: row.clientId,
    username: row.username,
    columnMapping: row.columnMapping,
  };
}

/** The settings as typed on the page, with blank secrets filled from the stored ones. */
export async function resolveCandidateSettings(
  db: Queryable,
  appSecret: string,
  input: SettingsBody,
): Promise<ResolvedSharePointSettings> {
  const data = settingsBody.parse(input);
  const needsStored = !data.password || !data.clientSecret || !data.columnMapping;
  const row = needsStored ? await readRow(db) : undefined;
  return {
    siteUrl: data.siteUrl,
    availabilityListName: data.availabilityListName,
    bookingsListName: data.bookingsListName,
    facilitatorListName: data.facilitatorListName,
    schoolsListName: data.schoolsListName,
    tenantId: data.tenantId,
    clientId: data.clientId,
    username: data.username,
    columnMapping: data.columnMapping ?? row?.columnMapping ?? {},
    clientSecret:
      data.clientSecret || decryptField(appSecret, row?.clientSecretEncrypted ?? null, 'clientSecret'),
    password: data.password || decryptField(appSecret, row?.passwordEncrypted ?? null, 'password'),
  };
}

/** Replace every occurrence of a secret in text a caller will see or a log will keep. */
export function hideSecrets(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret) result = result.split(secret).join('[hidden]');
  }
  return result;
}

/**
 * Try the typed settings (blank secrets = the stored ones) with the given tester. Never throws for a
 * failed connection: every failure becomes `{ success: false, message }`, with secrets removed.
 */
export async function testConnection(
  db: Queryable,
  appSecret: string,
  input: SettingsBody,
  tester: ConnectionTester,
  timeoutMs = CONNECTION_TEST_TIMEOUT_MS,
): Promise<TestConnectionResult> {
  let settings: ResolvedSharePointSettings;
  try {
    settings = await resolveCandidateSettings(db, appSecret, input);
  } catch (error) {
    if (error instanceof StoredSecretError) return { success: false, message: error.message };
    throw error;
  }

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<TestConnectionResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          success: false,
          message: `Could not connect to SharePoint: no answer within ${Math.round(timeoutMs / 1000)} seconds.`,
        }),
      timeoutMs,
    );
  });
  let result: TestConnectionResult;
  try {
    result = await Promise.race([tester(settings), timeout]);
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : 'unknown error';
    result = { success: false, message: `Could not connect to SharePoint: ${reason}` };
  } finally {
    clearTimeout(timer);
  }

  const success = result?.success === true;
  const raw = typeof result?.message === 'string' ? result.message.trim() : '';
  const message = hideSecrets(raw || (success ? SUCCESS_MESSAGE : FAILURE_MESSAGE), [
    settings.password,
    settings.clientSecret,
  ]).slice(0, 1000);
  return { success, message };
}

/**
 * Match the typed settings' lists against the portal's fields (blank secrets = the stored ones).
 * Never throws for an unreachable SharePoint: `reached` is false and the message says why.
 */
export async function checkColumns(
  db: Queryable,
  appSecret: string,
  input: SettingsBody,
  checker: ColumnChecker,
  timeoutMs = CONNECTION_TEST_TIMEOUT_MS,
): Promise<ColumnCheckResult> {
  let settings: ResolvedSharePointSettings;
  try {
    settings = await resolveCandidateSettings(db, appSecret, input);
  } catch (error) {
    if (error instanceof StoredSecretError) return { reached: false, message: error.message, lists: [] };
    throw error;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ColumnCheckResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          reached: false,
          message: `Could not read the columns: SharePoint gave no answer within ${Math.round(timeoutMs / 1000)} seconds.`,
          lists: [],
        }),
      timeoutMs,
    );
  });
  let result: ColumnCheckResult;
  try {
    result = await Promise.race([checker(settings), timeout]);
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : 'unknown error';
    result = { reached: false, message: `Could not read the columns: ${reason}`, lists: [] };
  } finally {
    clearTimeout(timer);
  }
  const secrets = [settings.password, settings.clientSecret];
  const hide = (text: string) => hideSecrets(text, secrets).slice(0, 1000);
  return {
    reached: result.reached,
    message: hide(result.message),
    lists: result.lists.map((list) => ({
      ...list,
      error: list.error === null ? null : hide(list.error),
    })),
  };
}
