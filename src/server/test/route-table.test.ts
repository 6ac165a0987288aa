/**
 * The route table (route-table.ts) and the app agree: every /api route the app registers is listed
 * once with the access and state-changing flag the route declares, nothing is listed that the app
 * does not serve, and every fuzz group has the fuzz file that fuzzes it.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { FUZZ_GROUPS, ROUTES, routeKey, routeTableProblems } from './route-table';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

describe('the route table', () => {
  it('lists every route the app serves, as the route declares itself, and nothing else', () => {
    expect(t.routes.length).toBeGreaterThan(0);
    expect(routeTableProblems(t.routes)).toEqual([]);
  });

  it('notices a route the table lacks, one it lists that is gone, and a disagreement', () => {
    const [first, ...others] = t.routes;
    expect(routeTableProblems(others)).toEqual([`${routeKey(first!)}: in the route table, not served`]);
    const unknown = { ...first!, url: '/api/not-in-the-table' };
    expect(routeTableProblems([...t.routes, unknown])).toContain(
      `${first!.method} /api/not-in-the-table: served, not in the route table`,
    );
    const changing = t.routes.find((route) => route.changesState)!;
    const flipped = t.routes.map((route) =>
      route === changing ? { ...route, changesState: false, access: 'staff' as const } : route,
    );
    const problems = routeTableProblems(flipped);
    expect(problems).toContain(
      `${routeKey(changing)}: a cross-site request for a route that changes nothing`,
    );
    expect(problems.some((line) => line.startsWith(`${routeKey(changing)}: changesState false`))).toBe(true);
  });

  it('has a fuzz file for every fuzz group, and every group has routes', () => {
    for (const group of FUZZ_GROUPS) {
      expect(existsSync(new URL(`./fuzz-${group}.test.ts`, import.meta.url)), group).toBe(true);
      expect(
        Object.values(ROUTES).filter((entry) => entry.fuzzGroup === group).length,
        group,
      ).toBeGreaterThan(0);
    }
  });
});
