import { randomBytes } from 'node:crypto';
import type { CreateUserBody } from '../../shared/schemas/users';
import type { BuildOptions, BuiltApp } from '../app';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, type DatabaseOptions, openDatabase } from '../db/client';
import { createUser, type UserRow } from '../modules/users/service';
import { adminQuery, databaseUrl, pgliteTemplateDump, postgresTemplateName } from './database-template';

export const STAFF = { username: 'staff@example.org', password: 'staff-password-1' };

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped again at close). Each starts as a copy of the
 * run's migrated template when Vitest's global setup made one (database-template.ts), otherwise
 * empty; buildApp applies whatever migrations are missing either way.
 */
export async function freshDatabase(
  onQuery?: DatabaseOptions['onQuery'],
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await freshPglite(onQuery);
    return { database, drop: () => database.close() };
  }
  const name = `afp_test_${randomBytes(6).toString('hex')}`;
  const template = postgresTemplateName();
  await adminQuery(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const database = await openDatabase({
    databaseUrl: databaseUrl(serverUrl, name),
    dataDir: 'unused',
    onQuery,
  });
  return {
    database,
    drop: async () => {
      await database.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * An in-memory PGlite of this file's own, whatever TEST_DATABASE_URL says: a copy of the migrated
 * template when there is one, otherwise empty. Call migrateDatabase before using it without buildApp.
 */
export function freshPglite(onQuery?: DatabaseOptions['onQuery']): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', onQuery, loadDataDir: pgliteTemplateDump() });
}

export interface TestApp extends BuiltApp {
  config: Config;
  /** Sign in through the real endpoint and return the Cookie header for later requests. */
  login(username: string, password: string, options?: { staff?: boolean }): Promise<string>;
  loginStaff(): Promise<string>;
  createUser(input: Partial<CreateUserBody> & { username: string }): Promise<UserRow & { password: string }>;
}

/** The configuration test apps run with, and `env` over it. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    DATA_DIR: 'memory://',
    // Background jobs stay off (they would reach for SharePoint); tests start a Scheduler themselves.
    BACKGROUND_JOBS: 'false',
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: Omit<BuildOptions, 'database'> & { onQuery?: DatabaseOptions['onQuery'] } = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const { onQuery, ...buildOptions } = options;
  const { database, drop } = await freshDatabase(onQuery);
  const built = await buildApp(config, { ...buildOptions, database });
  const { app } = built;

  const login: TestApp['login'] = async (username, password, loginOptions = {}) => {
    const response = await app.inject({
      method: 'POST',
      url: loginOptions.staff ? '/api/auth/staff-login' : '/api/login',
      payload: { username, password },
    });
    if (response.statusCode !== 200)
      throw new Error(`login failed for ${username}: ${response.statusCode} ${response.body}`);
    // `__Host-afp_session` where the app is always on TLS (COOKIE_SECURE=true, PUBLIC_URL on https)
    const cookie = response.cookies.find((c) => c.name === 'afp_session' || c.name === '__Host-afp_session');
    if (!cookie) throw new Error('login set no session cookie');
    return `${cookie.name}=${cookie.value}`;
  };

  return {
    ...built,
    config,
    login,
    loginStaff: () => login(STAFF.username, STAFF.password, { staff: true }),
    async createUser(input) {
      const password = input.password ?? 'password-123';
      const row = await createUser(built.ctx.db, { role: 'facilitator', ...input, password });
      return { ...row, password };
    },
    async close() {
      await built.close();
      await drop();
    },
  };
}
