import { defineConfig } from 'vitest/config';

/*
 * System tests: real portal processes, real PostgreSQL clusters, real signals. Each file starts its
 * own servers on free loopback ports in temporary directories, so files can share the machine; much
 * of their time is waiting for those processes (a restart, a drain, a scheduler tick), which left a
 * third of two cores idle when they ran one at a time.
 *
 * So the fault, scale-out and SharePoint-fault files run two at a time. The load test runs after
 * them, alone: it compares the answer times of two runs within the file, and another file starting
 * or ending beside one of them would move that comparison rather than the portal.
 */
const LOAD_TEST = 'system/load.test.ts';

const shared = {
  environment: 'node',
  pool: 'forks',
  testTimeout: 180_000,
  hookTimeout: 120_000,
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'system',
          include: ['system/**/*.test.ts'],
          exclude: [LOAD_TEST],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'system-load',
          include: [LOAD_TEST],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
