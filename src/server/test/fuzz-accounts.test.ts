/**
 * Hostile input on the sign-in, account and Sign in with Microsoft routes, and hostile ids on every :id route (the fuzzer: fuzz-harness.ts; which routes: `fuzzGroup` in route-table.ts).
 */
import { fuzzSuite } from './fuzz-harness';

await fuzzSuite('accounts', { canonicalIds: true });
