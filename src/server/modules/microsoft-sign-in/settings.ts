/**
 * Sign in with Microsoft: its settings (stored, sealed, resolved with the configuration), the
 * status the login pages read, and the test of a typed directory.
 */
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type MicrosoftSignInSettings,
  type MicrosoftSignInSettingsBody,
  type MicrosoftSignInStatus,
  type MicrosoftSignInTestResult,
  microsoftSignInSettingsBody,
} from '../../../shared/schemas/microsoft-sign-in';
import { describeCertificate, refuseUnusableCertificate } from '../../auth/client-certificate';
import type { SessionStore } from '../../auth/sessions';
import type { Config } from '../../config';
import { decryptSecret, deriveKey, encryptSecret } from '../../crypto';
import type { Db, Queryable } from '../../db/client';
import { microsoftIdentities, microsoftSignInSettings, sessions, users } from '../../db/schema';
import { badRequest } from '../../errors';
import type { MailRuntime } from '../../mail/transport';
import { type ChangeBy, recordChanges } from '../history/record';
import { STAFF_ROLE, type UserRow } from '../users/service';
import type { DiscoveryCache } from './discovery';
import { DiscoveryError, lookUpDirectory, type MicrosoftSignInConfig } from './discovery';

export const CALLBACK_PATH = '/api/auth/microsoft/callback';

/**
 * What Sign in with Microsoft uses: the configuration and the stored settings (the database, the
 * secret that seals them), the sessions it opens, the log, the clock, email (an identity's owner is
 * told of changes) and the identity provider's discovery, fetched once per app.
 */
export interface SignInDeps {
  config: Config;
  db: Db;
  appSecret: string;
  sessions: SessionStore;
  log: FastifyBaseLogger;
  now: () => Date;
  mailer: MailRuntime;
  signInDiscovery: DiscoveryCache;
}

type SettingsRow = typeof microsoftSignInSettings.$inferSelect;

const settingsKey = (appSecret: string) => deriveKey(appSecret, 'microsoft-sign-in-settings');

/**
 * Where the stored client secret may be used: the directory and the application it was typed for. It
 * is the GCM associated data of the sealed secret (ADR 0010), so it opens for nothing else.
 */
export function signInSecretDestination(tenantId: string, clientId: string): string {
  return JSON.stringify(['microsoft-sign-in', tenantId.toLowerCase(), clientId.toLowerCase()]);
}

export async function readSettingsRow(db: Queryable, lock = false): Promise<SettingsRow | undefined> {
  const query = db.select().from(microsoftSignInSettings).where(eq(microsoftSignInSettings.id, 1));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

function authorityOf(ctx: Pick<SignInDeps, 'config'>): string {
  return (ctx.config.ENTRA_AUTHORITY_HOST ?? ctx.config.AUTHORITY_HOST).replace(/\/+$/, '');
}

/** Everything the card and the sign-in need: what is in force and where each part comes from. */
export interface ResolvedSettings {
  row: SettingsRow | undefined;
  config: MicrosoftSignInConfig | null;
  tenant: string;
  clientId: string;
  hasClientSecret: boolean;
  clientSecretUnreadable: boolean;
  /** the stored certificate (PEM, public), also when its key no longer opens */
  certificatePem: string;
  clientCertificateUnreadable: boolean;
  staffRole: string;
  /** facilitators linked through an invitation may sign in with Microsoft */
  facilitatorSignIn: boolean;
  connectionSource: 'environment' | 'settings';
  staffRoleSource: 'environment' | 'settings';
}

/**
 * The configuration in force. The environment's tenant, client and secret (set together) win over
 * the stored ones, and ENTRA_STAFF_ROLE over the stored role: an operator's setting cannot be
 * changed from a web page.
 */
export async function resolveSettings(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db'>,
  db: Queryable = ctx.db,
): Promise<ResolvedSettings> {
  const row = await readSettingsRow(db);
  const {
    ENTRA_TENANT_ID,
    ENTRA_CLIENT_ID,
    ENTRA_CLIENT_SECRET,
    ENTRA_CLIENT_CERTIFICATE,
    ENTRA_STAFF_ROLE,
    PUBLIC_URL,
  } = ctx.config;
  const fromEnvironment = Boolean(ENTRA_TENANT_ID);
  let tenant = '';
  let clientId = '';
  let clientSecret = '';
  let clientSecretUnreadable = false;
  let certificatePem = '';
  let privateKeyPem = '';
  let clientCertificateUnreadable = false;
  if (fromEnvironment) {
    tenant = ENTRA_TENANT_ID ?? '';
    clientId = ENTRA_CLIENT_ID ?? '';
    clientSecret = ENTRA_CLIENT_SECRET ?? '';
    // read and checked at start from ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE
    certificatePem = ENTRA_CLIENT_CERTIFICATE?.certificatePem ?? '';
    privateKeyPem = ENTRA_CLIENT_CERTIFICATE?.privateKeyPem ?? '';
  } else if (row) {
    tenant = row.tenantId;
    clientId = row.clientId;
    if (row.clientSecretEncrypted) {
      try {
        clientSecret = decryptSecret(
          settingsKey(ctx.appSecret),
          row.clientSecretEncrypted,
          signInSecretDestination(tenant, clientId),
        );
      } catch {
        // APP_SECRET changed or the row was edited: unusable, so Microsoft sign-in is off until the
        // secret is entered again (and staff passwords are back)
        clientSecretUnreadable = true;
      }
    }
    if (row.clientCertificate && row.clientCertificateKeyEncrypted) {
      certificatePem = row.clientCertificate;
      try {
        privateKeyPem = decryptSecret(
          settingsKey(ctx.appSecret),
          row.clientCertificateKeyEncrypted,
          signInSecretDestination(tenant, clientId),
        );
      } catch {
        // as for the secret: the pair must be entered again
        clientCertificateUnreadable = true;
      }
    }
  }
  const certificate = privateKeyPem ? { certificatePem, privateKeyPem } : null;
  const staffRole = ENTRA_STAFF_ROLE ?? row?.staffRole ?? '';
  const config =
    tenant && clientId && (clientSecret || certificate) && PUBLIC_URL
      ? {
          tenant,
          clientId,
          clientSecret: certificate ? '' : clientSecret,
          certificate,
          authority: authorityOf(ctx),
          redirectUri: `${PUBLIC_URL}${CALLBACK_PATH}`,
          staffRole,
        }
      : null;
  return {
    row,
    config,
    tenant,
    clientId,
    hasClientSecret: Boolean(clientSecret) || clientSecretUnreadable,
    clientSecretUnreadable,
    certificatePem,
    clientCertificateUnreadable,
    staffRole,
    facilitatorSignIn: row?.facilitatorSignIn ?? false,
    connectionSource: fromEnvironment ? 'environment' : 'settings',
    staffRoleSource: ENTRA_STAFF_ROLE ? 'environment' : 'settings',
  };
}

/** The configuration in force, or null when Microsoft sign-in is not (completely) configured. */
export async function signInConfig(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db'>,
): Promise<MicrosoftSignInConfig | null> {
  return (await resolveSettings(ctx)).config;
}

export async function signInStatus(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db'>,
): Promise<MicrosoftSignInStatus> {
  const resolved = await resolveSettings(ctx);
  return {
    enabled: resolved.config !== null,
    staffPasswordSignIn: passwordsAllowed(resolved),
    facilitatorSignIn: resolved.config !== null && resolved.facilitatorSignIn,
  };
}

function passwordsAllowed(resolved: ResolvedSettings): boolean {
  if (!resolved.config) return true;
  return resolved.row?.staffPasswordSignIn ?? true;
}

/**
 * Whether staff may still sign in with a password. Only off while Microsoft sign-in is configured:
 * removing the configuration brings passwords back rather than locking every staff member out.
 */
export async function staffPasswordSignInAllowed(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db'>,
): Promise<boolean> {
  return passwordsAllowed(await resolveSettings(ctx));
}

export const STAFF_PASSWORD_OFF_MESSAGE =
  'Staff at this organisation sign in with Microsoft. Use "Sign in with Microsoft" on the staff login page.';

export async function getSignInSettings(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now'>,
  me: UserRow,
  saved: { clientSecretCleared?: boolean; clientCertificateCleared?: boolean } = {},
): Promise<MicrosoftSignInSettings> {
  const resolved = await resolveSettings(ctx);
  const [linked] = await ctx.db
    .select({ n: count() })
    .from(microsoftIdentities)
    .innerJoin(users, eq(users.id, microsoftIdentities.userId))
    .where(eq(users.role, STAFF_ROLE));
  const [mine] = await ctx.db
    .select({ id: microsoftIdentities.id })
    .from(microsoftIdentities)
    .where(eq(microsoftIdentities.userId, me.id));
  return {
    configured: resolved.config !== null,
    connectionSource: resolved.connectionSource,
    staffRoleSource: resolved.staffRoleSource,
    publicUrlSet: Boolean(ctx.config.PUBLIC_URL),
    tenantId: resolved.tenant,
    clientId: resolved.clientId,
    hasClientSecret: resolved.hasClientSecret,
    clientSecretUnreadable: resolved.clientSecretUnreadable,
    clientSecretCleared: saved.clientSecretCleared ?? false,
    hasClientCertificate: Boolean(resolved.certificatePem),
    clientCertificate: resolved.certificatePem
      ? describeCertificate(resolved.certificatePem, ctx.now())
      : null,
    clientCertificateUnreadable: resolved.clientCertificateUnreadable,
    clientCertificateCleared: saved.clientCertificateCleared ?? false,
    redirectUri: ctx.config.PUBLIC_URL ? `${ctx.config.PUBLIC_URL}${CALLBACK_PATH}` : '',
    staffRole: resolved.staffRole,
    staffPasswordSignIn: passwordsAllowed(resolved),
    createStaffFromRole: resolved.row?.createStaffFromRole ?? false,
    facilitatorSignIn: resolved.facilitatorSignIn,
    linkedStaff: linked?.n ?? 0,
    youAreLinked: Boolean(mine),
  };
}

/** What the history keeps of the settings: plain values, never the secret. */
function historyValues(
  row: Pick<
    SettingsRow,
    | 'tenantId'
    | 'clientId'
    | 'staffRole'
    | 'staffPasswordSignIn'
    | 'createStaffFromRole'
    | 'facilitatorSignIn'
  >,
) {
  return {
    microsoftSignIn: true,
    tenantId: row.tenantId,
    clientId: row.clientId,
    staffRole: row.staffRole,
    staffPasswordSignIn: row.staffPasswordSignIn,
    createStaffFromRole: row.createStaffFromRole,
    facilitatorSignIn: row.facilitatorSignIn,
  };
}

const NO_SETTINGS = {
  tenantId: '',
  clientId: '',
  staffRole: '',
  staffPasswordSignIn: true,
  createStaffFromRole: false,
  facilitatorSignIn: false,
};

/**
 * Save the card. Tenant, client and secret are refused while the environment sets them, as the role
 * while ENTRA_STAFF_ROLE does. A blank secret keeps the stored one only for the same tenant and
 * client; otherwise it is cleared and the answer says so. Passwords go off only while Microsoft
 * sign-in is configured and the staff member asking has a linked identity: whoever switches them off
 * can still get in.
 */
export async function saveSignInSettings(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now' | 'signInDiscovery'>,
  me: UserRow,
  body: MicrosoftSignInSettingsBody,
  by?: ChangeBy,
): Promise<MicrosoftSignInSettings> {
  const data = microsoftSignInSettingsBody.parse(body);
  const env = ctx.config;
  const refused: Record<string, string[]> = {};
  if (env.ENTRA_TENANT_ID) {
    if (data.tenantId !== undefined && data.tenantId.toLowerCase() !== env.ENTRA_TENANT_ID.toLowerCase())
      refused.tenantId = ['Set by ENTRA_TENANT_ID on the server'];
    if (
      data.clientId !== undefined &&
      data.clientId.toLowerCase() !== (env.ENTRA_CLIENT_ID ?? '').toLowerCase()
    )
      refused.clientId = ['Set by ENTRA_CLIENT_ID on the server'];
    if (data.clientSecret) refused.clientSecret = ['Set by ENTRA_CLIENT_SECRET on the server'];
    if (data.clientCertificate || data.clientCertificateKey)
      refused.clientCertificate = [
        'The application is set by ENTRA_TENANT_ID and ENTRA_CLIENT_ID on the server',
      ];
  }
  if (env.ENTRA_STAFF_ROLE && data.staffRole !== undefined && data.staffRole !== env.ENTRA_STAFF_ROLE) {
    refused.staffRole = ['Set by ENTRA_STAFF_ROLE on the server'];
  }
  if (Object.keys(refused).length > 0) {
    throw badRequest(
      "These settings come from the server's environment and cannot be changed here.",
      refused,
    );
  }

  refuseUnusableCertificate(data.clientCertificate, data.clientCertificateKey, ctx.now());

  const key = settingsKey(ctx.appSecret);
  const cleared = await ctx.db.transaction(async (tx) => {
    const existing = await readSettingsRow(tx, true);
    const keepConnection = Boolean(env.ENTRA_TENANT_ID);
    const tenantId = keepConnection
      ? (existing?.tenantId ?? '')
      : (data.tenantId ?? existing?.tenantId ?? '');
    const clientId = keepConnection
      ? (existing?.clientId ?? '')
      : (data.clientId ?? existing?.clientId ?? '');
    const staffRole = env.ENTRA_STAFF_ROLE
      ? (existing?.staffRole ?? '')
      : (data.staffRole ?? existing?.staffRole ?? '');
    const destination = signInSecretDestination(tenantId, clientId);

    let clientSecretEncrypted: string | null = existing?.clientSecretEncrypted ?? null;
    if (!keepConnection) {
      if (data.clientSecret) {
        if (!tenantId || !clientId) {
          throw badRequest(
            'Enter the directory (tenant) ID and the application (client) ID with the secret.',
            {
              clientSecret: ['Enter the tenant and client IDs first'],
            },
          );
        }
        clientSecretEncrypted = encryptSecret(key, data.clientSecret, destination);
      } else if (
        !existing ||
        !tenantId ||
        !clientId ||
        signInSecretDestination(existing.tenantId, existing.clientId) !== destination
      ) {
        // a secret is sent only to the application and directory it was typed for
        clientSecretEncrypted = null;
      }
    }
    const secretCleared = Boolean(existing?.clientSecretEncrypted) && !clientSecretEncrypted;

    // The certificate travels with its key, under the same binding as the secret.
    let clientCertificate = existing?.clientCertificate ?? null;
    let clientCertificateKeyEncrypted = existing?.clientCertificateKeyEncrypted ?? null;
    if (!keepConnection) {
      if (data.clientCertificate) {
        if (!tenantId || !clientId) {
          throw badRequest(
            'Enter the directory (tenant) ID and the application (client) ID with the certificate.',
            {
              clientCertificate: ['Enter the tenant and client IDs first'],
            },
          );
        }
        clientCertificate = data.clientCertificate;
        clientCertificateKeyEncrypted = encryptSecret(key, data.clientCertificateKey, destination);
      } else if (
        data.removeClientCertificate ||
        !existing ||
        !tenantId ||
        !clientId ||
        signInSecretDestination(existing.tenantId, existing.clientId) !== destination
      ) {
        clientCertificate = null;
        clientCertificateKeyEncrypted = null;
      }
    }
    const certificateRemoved =
      Boolean(existing?.clientCertificateKeyEncrypted) && !clientCertificateKeyEncrypted;
    const certificateCleared = certificateRemoved && !data.removeClientCertificate;

    if (!data.staffPasswordSignIn) {
      const configuredAfter =
        Boolean(env.PUBLIC_URL) &&
        (keepConnection ||
          Boolean(tenantId && clientId && (clientSecretEncrypted || clientCertificateKeyEncrypted)));
      if (!configuredAfter) {
        throw badRequest('Microsoft sign-in is not configured, so staff passwords must stay on.', {
          staffPasswordSignIn: ['Configure Sign in with Microsoft first'],
        });
      }
      const [mine] = await tx
        .select({ id: microsoftIdentities.id })
        .from(microsoftIdentities)
        .where(eq(microsoftIdentities.userId, me.id));
      if (!mine) {
        throw badRequest(
          'Sign in with Microsoft yourself first: password sign-in can only be turned off by a staff member whose account is linked to Microsoft, so that somebody can still get in.',
          { staffPasswordSignIn: ['Link your own account to Microsoft first'] },
        );
      }
    }

    const createStaffFromRole = data.createStaffFromRole ?? existing?.createStaffFromRole ?? false;
    if (createStaffFromRole && !(env.ENTRA_STAFF_ROLE ?? staffRole)) {
      throw badRequest('Name the staff app role first: accounts are only created for people who hold it.', {
        createStaffFromRole: ['Enter the staff app role first'],
      });
    }

    const facilitatorSignIn = data.facilitatorSignIn ?? existing?.facilitatorSignIn ?? false;
    if (existing?.facilitatorSignIn && !facilitatorSignIn) {
      // turned off: the sessions facilitators opened with Microsoft end now, not at their next sign-in
      await tx
        .delete(sessions)
        .where(
          and(
            eq(sessions.signedInWithMicrosoft, true),
            inArray(
              sessions.userId,
              tx.select({ id: users.id }).from(users).where(ne(users.role, STAFF_ROLE)),
            ),
          ),
        );
    }

    const values = {
      staffPasswordSignIn: data.staffPasswordSignIn,
      createStaffFromRole,
      facilitatorSignIn,
      tenantId,
      clientId,
      clientSecretEncrypted,
      clientCertificate,
      clientCertificateKeyEncrypted,
      staffRole,
      updatedAt: ctx.now(),
    };
    await tx
      .insert(microsoftSignInSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: microsoftSignInSettings.id, set: values });
    if (by) {
      const before = historyValues(existing ?? NO_SETTINGS);
      const after = historyValues(values);
      const secret = data.clientSecret && !keepConnection ? 'changed' : secretCleared ? 'cleared' : null;
      const certificate =
        data.clientCertificate && !keepConnection ? 'changed' : certificateRemoved ? 'cleared' : null;
      if (JSON.stringify(before) !== JSON.stringify(after) || secret || certificate) {
        await recordChanges(tx, [
          {
            entity: 'settings',
            action: existing ? 'update' : 'create',
            subjectUserId: null,
            actorId: by.actorId,
            via: by.via,
            before: existing ? before : null,
            after: {
              ...after,
              ...(secret ? { clientSecret: secret } : {}),
              ...(certificate ? { clientCertificate: certificate } : {}),
            },
          },
        ]);
      }
    }
    return { clientSecretCleared: secretCleared, clientCertificateCleared: certificateCleared };
  });
  // the next sign-in discovers the directory afresh
  ctx.signInDiscovery.clear();
  return getSignInSettings(ctx, me, cleared);
}

/**
 * Try the typed directory against the identity provider: fetch its discovery document and check the
 * issuer it names. Never throws for a failure; the message names a category, never the answer.
 */
export async function testSignInSettings(
  ctx: Pick<SignInDeps, 'config'>,
  tenant: string,
): Promise<MicrosoftSignInTestResult> {
  try {
    const { tenantId } = await lookUpDirectory(authorityOf(ctx), tenant);
    return {
      success: true,
      message: `Microsoft answered for the directory ${tenantId}. The client ID and its secret or certificate are checked at the first sign-in.`,
    };
  } catch (error) {
    const kind = error instanceof DiscoveryError ? error.kind : 'unreachable';
    const messages: Record<DiscoveryError['kind'], string> = {
      not_found:
        "Microsoft does not know this directory: check the directory (tenant) ID on the app registration's Overview page.",
      unreachable:
        'Could not reach Microsoft sign-in from the server. Check its internet access and try again.',
      wrong_issuer:
        'Microsoft answered for another directory than the one entered: use the directory (tenant) ID from the app registration.',
      foreign_endpoint:
        "The directory's sign-in addresses are not all on the sign-in authority's own host, so the portal will not use them. Check AUTHORITY_HOST (or ENTRA_AUTHORITY_HOST) and any proxy in between.",
      invalid: 'Microsoft sign-in gave an answer the portal cannot use.',
    };
    return { success: false, message: messages[kind] };
  }
}
