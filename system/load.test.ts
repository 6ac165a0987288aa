/**
 * The short form of `npm run load` (system/load.ts) for CI: a few seconds of facilitators saving and
 * staff reading the month grid against the real portal process, on PGlite and on PostgreSQL. Every
 * acknowledged write must be in the database exactly once with its last acknowledged value, nothing
 * unexpected may fail, and the outbox must bring the Availability list level with the database.
 * The figures are printed; they are not asserted (two shared cores make them noisy).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { failures, formatReport, type LoadOptions, runLoad } from './load';

const SHORT: Omit<LoadOptions, 'db'> = {
  durationSeconds: Number(process.env.LOAD_TEST_SECONDS ?? 7),
  warmupSeconds: 1,
  facilitators: 6,
  staff: 2,
  perUserInFlight: 2,
  maxInFlight: 16,
  drainTimeoutMs: 30_000,
};

const printed: string[] = [];
afterAll(() => {
  if (printed.length > 0) process.stdout.write(`\n${printed.join('\n\n')}\n`);
});

describe('load: nothing acknowledged is lost or duplicated', () => {
  test('PGlite', async () => {
    const report = await runLoad({ ...SHORT, db: 'pglite' });
    printed.push(formatReport(report));
    expect(failures(report)).toEqual([]);
    expect(report.expected409).toBeGreaterThan(0);
  });

  test('PostgreSQL', async () => {
    const report = await runLoad({ ...SHORT, db: 'postgres' });
    printed.push(formatReport(report));
    expect(failures(report)).toEqual([]);
    expect(report.expected409).toBeGreaterThan(0);
  });
});
