import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Files that take far longer than the rest, most of it waiting on processes they start (a portal, the
 * demo, a backup) or on hundreds of requests (fuzz, the cross-site table). Vitest orders files by their
 * last duration only when it has a cache of it; a fresh clone (CI) gets them ordered by size, which left
 * the demo's small file for last, one worker busy with it while the other sat idle. Starting these first
 * lets the short files fill in around them (docs/decisions/0036-test-workers-and-order.md).
 */
const SLOW_FIRST = [
  /scripts\/backup\.test\.ts$/,
  /src\/server\/test\/fuzz[^/]*\.test\.ts$/,
  /scripts\/demo\.test\.ts$/,
  /src\/server\/http\/sessions-[^/]*\.test\.ts$/,
  /src\/server\/modules\/microsoft-sign-in\/microsoft-sign-in\.test\.ts$/,
  /src\/server\/serve\.test\.ts$/,
  /src\/server\/test\/access-matrix[^/]*\.test\.ts$/,
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    alias: {
      '@': here('./src/client'),
      '@shared': here('./src/shared'),
    },
  },
  test: {
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the two-core machines the project
    // and its CI run on. Much of a file's time is waiting (for PGlite, PostgreSQL, a child process),
    // so two side by side finish sooner even on two cores (ADR 0036).
    maxWorkers: 2,
    sequence: { sequencer: SlowFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // A worker keeps the modules it loaded for the next file instead of starting a new process and
          // loading the app, PGlite's WebAssembly and the template again for each of the 80 files. The
          // code keeps no state in modules that outlives an app (ADR 0036 lists what was checked).
          isolate: false,
          // One migrated database for the run; each test file starts from a copy of it.
          globalSetup: ['src/server/test/global-setup.ts'],
        },
      },
      {
        // Component tests: the client's React code in jsdom with Testing Library, the API answered at
        // the network edge by MSW (src/client/test/).
        extends: true,
        test: {
          name: 'client',
          include: ['src/client/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/client/test/setup.ts'],
          // As in the node project: a worker keeps React, Radix, TanStack Query and the rest it loaded
          // for the next file instead of loading them again in a new process for each of the files.
          // setup.ts runs before every file all the same, and tests put back what they change in the
          // window (ADR 113 says what a test puts back).
          isolate: false,
        },
      },
    ],
  },
});
