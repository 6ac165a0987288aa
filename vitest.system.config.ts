import { defineConfig } from 'vitest/config';

// System tests: real portal processes, real PostgreSQL clusters, real signals. One file at a time,
// because they start servers and measure them, and the machine has two cores.
export default defineConfig({
  test: {
    include: ['system/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
