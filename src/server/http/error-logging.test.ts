/**
 * Database errors are logged without their statement or parameters: a failed INSERT once printed a
 * whole account row, password hash included. Real errors from PGlite through Drizzle, real log lines.
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { users } from '../db/schema';
import { describeError } from '../errors';
import { freshPglite } from '../test/harness';
import { registerErrorHandling } from './errors';

const SECRET = '$argon2id$v=19$m=19456,t=2,p=1$hunter2-secret-hash';
let database: Database;

beforeAll(async () => {
  database = await freshPglite();
  await migrateDatabase(database);
});
afterAll(() => database.close());

/** A check violation: the role breaks users_role_format; the row carries the "secret" hash. */
const failingInsert = () =>
  database.db.insert(users).values({
    username: 'leak@example.org',
    usernameCanonical: 'leak@example.org',
    passwordHash: SECRET,
    role: 'Not A Role',
  });

describe('logging database errors', () => {
  it('logs the SQLSTATE and constraint of a failed request, never the statement or its values', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    registerErrorHandling(app);
    app.post('/fail', async () => {
      await failingInsert();
      return {};
    });
    const response = await app.inject({ method: 'POST', url: '/fail' });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    const logged = lines.join('');
    expect(logged).toContain('request failed');
    expect(logged).toContain('23514');
    expect(logged).toContain('users_role_format');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('leak@example.org');
    expect(logged).not.toMatch(/insert into|params/i);
  });

  it('answers a deadlock or serialisation failure 409 (nothing was kept; try again), never 500', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.post('/gave-way/:code', async (request) => {
      const { code } = request.params as { code: string };
      // the database's own error, as PostgreSQL raises it when it aborts one of two transactions
      await database.db.execute(
        sql.raw(
          `do $$ begin raise exception 'gave way' using errcode = '${code === 'deadlock' ? '40P01' : '40001'}'; end $$`,
        ),
      );
      return {};
    });
    for (const code of ['deadlock', 'serialisation']) {
      const response = await app.inject({ method: 'POST', url: `/gave-way/${code}` });
      expect(response.statusCode, code).toBe(409);
      expect(response.json().message).toMatch(/same moment.*try again/);
    }
    await app.close();
  });

  it('describes a database error for job states in one line without values', async () => {
    const error = await failingInsert().catch((e: unknown) => e);
    expect(describeError(error)).toBe('database error 23514 on users_role_format');
    expect(describeError(new Error('SharePoint said no'))).toBe('SharePoint said no');
  });
});
