/**
 * The short form of `npm run load` (system/load.ts) for CI: a few seconds of facilitators saving and
 * staff reading the month grid against the real portal process, on PGlite and on PostgreSQL. Every
 * acknowledged write must be in the database exactly once with its last acknowledged value, nothing
 * unexpected may fail, and the outbox must bring the Availability list level with the database.
 * The figures are printed; they are not asserted (two shared cores make them noisy).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_BUDGETS } from '../src/server/http/budgets';
import { failures, formatReport, type LoadOptions, type LoadReport, runLoad } from './load';

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

let pgliteBaseline: LoadReport | undefined;
/** The fewest requests of a kind whose median is compared between the two PGlite runs. */
const MEDIAN_FROM = 20;

describe('load: nothing acknowledged is lost or duplicated', () => {
  test('PGlite', async () => {
    const report = await runLoad({ ...SHORT, db: 'pglite' });
    pgliteBaseline = report;
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

  // The same load with one facilitator looping 800-day bulk updates and ignoring 429s: the request
  // budgets refuse most of them, and nobody else's median time more than doubles.
  test('PGlite, with an abusive facilitator', async () => {
    const report = await runLoad({ ...SHORT, db: 'pglite', abusers: 1 });
    printed.push(formatReport(report));
    expect(failures(report)).toEqual([]);
    const abuse = report.abuse!;
    expect(abuse.limited).toBeGreaterThan(0);
    expect(abuse.other).toBe(0);
    // at most the day-write budget (two windows' worth across a window edge)
    expect(abuse.daysWritten).toBeLessThanOrEqual(2 * DEFAULT_BUDGETS.dayWrites.max);
    const baseline = pgliteBaseline;
    if (!baseline) return;
    for (const kind of report.kinds) {
      const before = baseline.kinds.find((k) => k.kind === kind.kind);
      // A median of a handful of requests (staff create a note or two a second) is moved by one slow
      // answer, and the machine's load can change between the two runs: only kinds with enough
      // requests in both are compared.
      if (!before || before.requests < MEDIAN_FROM || kind.requests < MEDIAN_FROM) continue;
      expect(kind.p50, `${kind.kind}: p50 ${kind.p50} ms against ${before.p50} ms`).toBeLessThanOrEqual(
        2 * before.p50,
      );
    }
  });
});
