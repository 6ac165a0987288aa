/**
 * Hostile input on the SharePoint, scheduler and email reminder routes, and hostile SharePoint items through refresh and import (the fuzzer: fuzz-harness.ts; which routes: `fuzzGroup` in route-table.ts).
 */
import { fuzzSuite } from './fuzz-harness';

await fuzzSuite('sharepoint', { sharePointItems: true });
