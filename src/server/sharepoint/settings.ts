/**
 * The SharePoint settings: stored in one row with their secrets sealed to where they may be used,
 * read back for the connector, tried from the settings page. SharePoint owns them; the settings
 * module's routes call in here and record the history through the callback they pass.
 */
import { eq } from 'drizzle-orm';
import {
  type SettingsBody,
  type SettingsResponse,
  settingsBody,
  type TestConnectionResult,
} from '../../shared/schemas/settings';
import type { ColumnCheckResult } from '../../shared/schemas/sharepoint-columns';
import { describeCertificate, refuseUnusableCertificate } from '../auth/client-certificate';
import { decryptSecret, deriveKey, encryptSecret, isUnboundSecret } from '../crypto';
import type { Db, Queryable } from '../db/client';
import { sharepointSettings } from '../db/schema';
import type { ColumnChecker, ConnectionTester, ResolvedSharePointSettings } from './connection';

type SettingsRow = typeof sharepointSettings.$inferSelect;
type SecretField = 'password' | 'clientSecret' | 'clientCertificateKey';

const SETTINGS_ID = 1;
/** A connection test that has not answered by then counts as failed. */
export const CONNECTION_TEST_TIMEOUT_MS = 30_000;
const SUCCESS_MESSAGE = 'Connection to SharePoint successful!';
/** A blank secret in a test means the stored one only for the tenant, app and site it was stored for. */
export const STORED_ELSEWHERE_MESSAGE =
  'The stored secret belongs to another tenant, client or site: enter it again to test these settings.';
const FAILURE_MESSAGE = 'Connection test failed';

const settingsKey = (appSecret: string) => deriveKey(appSecret, 'sharepoint-settings');

const SECRET_LABELS: Record<SecretField, string> = {
  password: 'password',
  clientSecret: 'client secret',
  clientCertificateKey: 'certificate private key',
};

/** A stored secret that no longer decrypts: APP_SECRET changed, or the row was edited by hand. */
export class StoredSecretError extends Error {
  constructor(readonly field: SecretField) {
    super(
      `The stored SharePoint ${SECRET_LABELS[field]} could not be read (was APP_SECRET changed?). Enter it again and save.`,
    );
    this.name = 'StoredSecretError';
  }
}

/**
 * Where a stored SharePoint secret may be used: the tenant, app and site it was typed for (and, for
 * the password, the account). It is the GCM associated data of the sealed secret, so it opens for
 * nothing else; a certificate or key stored later belongs here too.
 */
export function sharePointDestination(
  d: { tenantId: string; clientId: string; siteUrl: string; username: string },
  field: SecretField,
): string {
  let site = d.siteUrl;
  try {
    const url = new URL(d.siteUrl);
    site = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // kept as typed: it only has to compare equal with itself
  }
  const place = ['sharepoint', d.tenantId.toLowerCase(), d.clientId.toLowerCase(), site];
  return JSON.stringify(field === 'password' ? [...place, d.username] : place);
}

const SEALED_COLUMN = {
  password: 'passwordEncrypted',
  clientSecret: 'clientSecretEncrypted',
  clientCertificateKey: 'clientCertificateKeyEncrypted',
} as const;

/** What the settings page shows: never a secret, only whether one is stored. */
export function toSettingsResponse(
  row: SettingsRow | undefined,
  cleared: {
    passwordCleared?: boolean;
    clientSecretCleared?: boolean;
    clientCertificateCleared?: boolean;
  } = {},
  now: Date = new Date(),
): SettingsResponse {
  const hasClientCertificate = Boolean(row?.clientCertificate && row.clientCertificateKeyEncrypted);
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
    passwordCleared: cleared.passwordCleared ?? false,
    clientSecretCleared: cleared.clientSecretCleared ?? false,
    hasClientCertificate,
    clientCertificate: hasClientCertificate ? describeCertificate(row!.clientCertificate!, now) : null,
    clientCertificateCleared: cleared.clientCertificateCleared ?? false,
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

/** What a save changed, for the caller's history: plain fields, and for a secret only that it changed. */
export interface SettingsChange {
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}

/**
 * Save the settings. A blank password or client secret keeps the stored one only while its
 * destination (sharePointDestination) stays the same; otherwise it is cleared, and the answer says
 * so: a secret is sent only where it was typed for. `onChange` runs inside the save's transaction
 * when something changed (the settings module records it in the history there).
 */
export async function storeSettings(
  db: Db,
  appSecret: string,
  input: SettingsBody,
  onChange?: (tx: Queryable, change: SettingsChange) => Promise<void>,
): Promise<SettingsResponse> {
  const data = settingsBody.parse(input);
  const key = settingsKey(appSecret);
  const now = new Date();
  refuseUnusableCertificate(data.clientCertificate, data.clientCertificateKey, now);
  return db.transaction(async (tx) => {
    const existing = await readRow(tx, true);
    const seal = (field: SecretField): string | null => {
      const destination = sharePointDestination(data, field);
      if (data[field]) return encryptSecret(key, data[field], destination);
      const stored = existing?.[SEALED_COLUMN[field]] ?? null;
      if (!existing || !stored || sharePointDestination(existing, field) !== destination) return null;
      if (!isUnboundSecret(stored)) return stored;
      try {
        return encryptSecret(key, openSecret(key, existing, field), destination);
      } catch {
        // unreadable (APP_SECRET changed): kept, and reported where it is used
        return stored;
      }
    };
    const clientSecretEncrypted = seal('clientSecret');
    const passwordEncrypted = seal('password');
    // The certificate travels with its key: both stay, both go, or both are replaced.
    const clientCertificateKeyEncrypted = data.removeClientCertificate ? null : seal('clientCertificateKey');
    const clientCertificate = clientCertificateKeyEncrypted
      ? data.clientCertificate || existing?.clientCertificate || null
      : null;
    const cleared = {
      clientSecretCleared: Boolean(existing?.clientSecretEncrypted) && !clientSecretEncrypted,
      passwordCleared: Boolean(existing?.passwordEncrypted) && !passwordEncrypted,
      clientCertificateCleared:
        Boolean(existing?.clientCertificateKeyEncrypted) &&
        !clientCertificateKeyEncrypted &&
        !data.removeClientCertificate,
    };
    const values = {
      siteUrl: data.siteUrl,
      availabilityListName: data.availabilityListName,
      bookingsListName: data.bookingsListName,
      facilitatorListName: data.facilitatorListName,
      schoolsListName: data.schoolsListName,
      tenantId: data.tenantId,
      clientId: data.clientId,
      username: data.username,
      clientSecretEncrypted,
      passwordEncrypted,
      clientCertificate,
      clientCertificateKeyEncrypted: clientCertificate ? clientCertificateKeyEncrypted : null,
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
    if (onChange) {
      const before = existing ? toPlainSettings(existing) : null;
      const after = toPlainSettings(row!);
      const secrets = {
        ...(data.password ? { password: 'changed' } : cleared.passwordCleared ? { password: 'cleared' } : {}),
        ...(data.clientSecret
          ? { clientSecret: 'changed' }
          : cleared.clientSecretCleared
            ? { clientSecret: 'cleared' }
            : {}),
        ...(data.clientCertificateKey
          ? { clientCertificate: 'changed' }
          : cleared.clientCertificateCleared || (data.removeClientCertificate && existing?.clientCertificate)
            ? { clientCertificate: 'cleared' }
            : {}),
      };
      if (JSON.stringify(before) !== JSON.stringify(after) || Object.keys(secrets).length > 0) {
        await onChange(tx, { before, after: { ...after, ...secrets } });
      }
    }
    return toSettingsResponse(row, cleared, now);
  });
}

/** A stored secret, opened for the destination of the row it is stored in. */
function openSecret(key: Buffer, row: SettingsRow, field: SecretField): string {
  const sealed = row[SEALED_COLUMN[field]];
  if (!sealed) return '';
  // a secret sealed before binding existed belongs to the row it was read from
  return decryptSecret(key, sealed, sharePointDestination(row, field), { acceptUnbound: true });
}

function decryptField(appSecret: string, row: SettingsRow | undefined, field: SecretField): string {
  if (!row) return '';
  try {
    return openSecret(settingsKey(appSecret), row, field);
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
  const clientCertificateKey = row.clientCertificate
    ? decryptField(appSecret, row, 'clientCertificateKey')
    : '';
  return {
    ...toPlainSettings(row),
    clientSecret: decryptField(appSecret, row, 'clientSecret'),
    password: decryptField(appSecret, row, 'password'),
    clientCertificate: clientCertificateKey ? (row.clientCertificate ?? '') : '',
    clientCertificateKey,
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

/**
 * The settings as typed on the page, with a blank secret filled from the stored one only when the
 * typed destination is the one it was stored for: a test against another tenant, app or site must
 * not carry the stored secret there.
 */
export async function resolveCandidateSettings(
  db: Queryable,
  appSecret: string,
  input: SettingsBody,
): Promise<ResolvedSharePointSettings> {
  const data = settingsBody.parse(input);
  const needsStored =
    !data.password || !data.clientSecret || !data.clientCertificateKey || !data.columnMapping;
  const stored = needsStored ? await readRow(db) : undefined;
  const storedFor = (field: SecretField) =>
    stored && sharePointDestination(stored, field) === sharePointDestination(data, field)
      ? stored
      : undefined;
  return {
    siteUrl: data.siteUrl,
    availabilityListName: data.availabilityListName,
    bookingsListName: data.bookingsListName,
    facilitatorListName: data.facilitatorListName,
    schoolsListName: data.schoolsListName,
    tenantId: data.tenantId,
    clientId: data.clientId,
    username: data.username,
    columnMapping: data.columnMapping ?? stored?.columnMapping ?? {},
    clientSecret: data.clientSecret || decryptField(appSecret, storedFor('clientSecret'), 'clientSecret'),
    password: data.password || decryptField(appSecret, storedFor('password'), 'password'),
    ...candidateCertificate(appSecret, data, storedFor('clientCertificateKey')),
  };
}

/** The typed certificate and key, or the stored pair when none was typed and it belongs here. */
function candidateCertificate(
  appSecret: string,
  data: ReturnType<typeof settingsBody.parse>,
  stored: SettingsRow | undefined,
): { clientCertificate: string; clientCertificateKey: string } {
  if (data.removeClientCertificate) return { clientCertificate: '', clientCertificateKey: '' };
  if (data.clientCertificate || data.clientCertificateKey) {
    return { clientCertificate: data.clientCertificate, clientCertificateKey: data.clientCertificateKey };
  }
  if (!stored?.clientCertificate) return { clientCertificate: '', clientCertificateKey: '' };
  const key = decryptField(appSecret, stored, 'clientCertificateKey');
  return { clientCertificate: key ? stored.clientCertificate : '', clientCertificateKey: key };
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
  const typed = settingsBody.parse(input);
  if (typed.clientCertificate || typed.clientCertificateKey) {
    try {
      refuseUnusableCertificate(typed.clientCertificate, typed.clientCertificateKey, new Date());
    } catch (error) {
      const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
      const first = Object.values(fieldErrors).flat()[0];
      return { success: false, message: first ?? (error as Error).message };
    }
  }
  if (
    !settings.clientSecret &&
    !settings.password &&
    !settings.clientCertificateKey &&
    !typed.clientSecret &&
    !typed.password
  ) {
    const row = await readRow(db);
    if (row?.clientSecretEncrypted || row?.passwordEncrypted || row?.clientCertificateKeyEncrypted) {
      return { success: false, message: STORED_ELSEWHERE_MESSAGE };
    }
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
    settings.clientCertificateKey,
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
  const secrets = [settings.password, settings.clientSecret, settings.clientCertificateKey];
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
