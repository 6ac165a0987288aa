/**
 * One runner at a time. On PostgreSQL (several instances may share it) a session-level advisory lock
 * held on a dedicated connection; on PGlite (one process) an in-process flag.
 */
import type { Database } from '../db/client';

/** Any constants work; every instance of the portal must use the same ones. */
export const JOB_LOCK_IDS = {
  'bookings-refresh': 72_410_002,
  'outbox-drain': 72_410_003,
  // one reminder run at a time (staff clicks, other instances, the automatic reminder)
  reminders: 72_410_004,
  // one instance keeps the change-notification subscription
  'change-notifications': 72_410_005,
  // one safeguarding reminder run at a time (the scheduler on every instance)
  'safeguarding-reminders': 72_410_006,
  // one retention run a day, on one instance
  retention: 72_410_007,
} as const;

export type JobName = keyof typeof JOB_LOCK_IDS;

export interface JobLock {
  release(): Promise<void>;
}

/** The lock if it is free right now, else null (never waits). */
export async function tryJobLock(database: Database, name: JobName): Promise<JobLock | null> {
  if (database.kind === 'postgres' && database.pool) {
    const client = await database.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
        JOB_LOCK_IDS[name],
      ]);
      if (!rows[0]?.locked) {
        client.release();
        return null;
      }
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        try {
          await client.query('select pg_advisory_unlock($1)', [JOB_LOCK_IDS[name]]);
          client.release();
        } catch (error) {
          // a broken connection drops its locks with it
          client.release(error instanceof Error ? error : true);
        }
      },
    };
  }
  const held = database.heldJobLocks;
  if (held.has(name)) return null;
  held.add(name);
  return {
    async release() {
      held.delete(name);
    },
  };
}
