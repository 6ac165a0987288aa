/**
 * Hostile input on the availability, bookings, notes, calendar feed, export and history routes (the fuzzer: fuzz-harness.ts; which routes: `fuzzGroup` in route-table.ts).
 */
import { fuzzSuite } from './fuzz-harness';

await fuzzSuite('calendar');
