/**
 * Hostile input on the session, offer, offer link and safeguarding routes (the fuzzer: fuzz-harness.ts; which routes: `fuzzGroup` in route-table.ts).
 */
import { fuzzSuite } from './fuzz-harness';

await fuzzSuite('offers');
