import { sql } from 'drizzle-orm';
import type { NotReadyAnswer } from '../../../shared/schemas/probes';
import type { Db } from '../../db/client';
import { describeMigrationState, readMigrationState } from '../../db/migrate';

export interface ReadinessInputs {
  db: Db;
  /** the process has begun to stop: the load balancer should send no more requests */
  shuttingDown: () => boolean;
  /** the built client is in place */
  clientBuilt: () => boolean;
}

/**
 * Whether this instance can serve: not stopping, its client built, its database answering and
 * holding exactly the migrations this code knows. The first reason found is the answer; null when
 * ready. The migrations are read at every probe: another instance may migrate the database past this
 * code during a rolling upgrade, or an operator may restore an older backup under it.
 */
export async function notReadyReason(inputs: ReadinessInputs): Promise<NotReadyAnswer | null> {
  const notReady = (reason: NotReadyAnswer['reason'], message: string): NotReadyAnswer => ({
    status: 'not-ready',
    reason,
    message,
  });
  if (inputs.shuttingDown()) return notReady('shutting-down', 'The portal is stopping');
  if (!inputs.clientBuilt()) return notReady('client-not-built', 'The client is not built yet');
  let state: Awaited<ReturnType<typeof readMigrationState>>;
  try {
    await inputs.db.execute(sql`select 1`);
    state = await readMigrationState(inputs.db);
  } catch {
    return notReady('database-unreachable', 'The database is not answering');
  }
  const disagreement = describeMigrationState(state);
  if (disagreement) return notReady(state.ahead > 0 ? 'migrations-ahead' : 'migrations-behind', disagreement);
  return null;
}
