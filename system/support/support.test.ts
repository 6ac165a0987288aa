import { afterAll, expect, test } from 'vitest';
import { ApiClient } from './http';
import { SYSTEM_STAFF, startPortal } from './portal';
import { type PostgresCluster, startPostgres } from './postgres';

let cluster: PostgresCluster | undefined;
afterAll(async () => cluster?.destroy());

test('a portal process on a throwaway PostgreSQL cluster answers and signs staff in', async () => {
  cluster = await startPostgres();
  const portal = await startPortal({ databaseUrl: await cluster.createDatabase() });
  const staff = await new ApiClient(portal.url).login(SYSTEM_STAFF.username, SYSTEM_STAFF.password, {
    staff: true,
  });
  expect((await staff.request('GET', '/api/user')).status).toBe(200);
  expect((await portal.stop()).code).toBe(0);
});
