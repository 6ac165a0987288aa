/**
 * Which scripts Chromium's renderers spent their CPU on during Playwright tests.
 *
 *   E2E_PROFILE_DIR=/tmp/profiles CI=true npx playwright test e2e/users.spec.ts --project desktop
 *   npm run bench:e2e-profile -- /tmp/profiles [--functions client-]
 *
 * Reads every trace the e2e fixtures recorded (one per test, with V8's sampling profiler on) and
 * charges each sample to the nearest frame on its stack that names a script: the app's files under
 * /assets/, or, for code evaluated without a URL (axe and Playwright's injected script), the
 * function's name. V8's own entries stay apart: "(program)" is native work outside JavaScript
 * (style, layout, parsing, painting on the main thread), "(idle)" a thread waiting. With
 * --functions, it lists instead the functions that used the most time themselves in scripts whose
 * URL contains that text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { functions: { type: 'string' } },
  allowPositionals: true,
});
const dir = positionals[0];
const functionsOf = values.functions;
if (!dir) {
  console.error('usage: npm run bench:e2e-profile -- <E2E_PROFILE_DIR> [--functions <url part>]');
  process.exit(2);
}

interface CallFrame {
  functionName: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: Map<number, ProfileNode>;
  samples: number[];
  deltas: number[];
}
interface TraceEvent {
  name: string;
  pid: number;
  id?: string;
  args?: { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
}

/** Strips the origin and the build's content hash, so one script reads the same in every trace. */
const scriptName = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/-[\w-]{8}\.js$/, '.js');

const totals = new Map<string, number>();
let sampled = 0;
const add = (key: string, us: number) => totals.set(key, (totals.get(key) ?? 0) + us);

const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
for (const file of files) {
  const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as
    | { traceEvents: TraceEvent[] }
    | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  // a profile arrives in chunks, each adding nodes and samples to the one before
  const profiles = new Map<string, Profile>();
  for (const event of events) {
    if (event.name !== 'ProfileChunk') continue;
    const key = `${event.pid}/${event.id}`;
    const profile: Profile = profiles.get(key) ?? { nodes: new Map(), samples: [], deltas: [] };
    profiles.set(key, profile);
    const data = event.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.samples.push(...(data?.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data?.timeDeltas ?? []));
  }
  for (const { nodes, samples, deltas } of profiles.values()) {
    for (const [i, id] of samples.entries()) {
      // each delta is the time before its sample; the sample's own time is the next one
      const us = deltas[i + 1] ?? 0;
      sampled += us;
      const leaf = nodes.get(id);
      const key = leaf && (functionsOf === undefined ? ownerOf(leaf, nodes) : ownFunction(leaf, functionsOf));
      if (key) add(key, us);
    }
  }
}

/** The script a sample is charged to: the nearest frame that names one, else V8's entry or the function. */
function ownerOf(leaf: ProfileNode, nodes: Map<number, ProfileNode>): string {
  if (leaf.callFrame.functionName.startsWith('(')) return leaf.callFrame.functionName;
  for (let node: ProfileNode | undefined = leaf; node; node = nodes.get(node.parent ?? -1)) {
    if (node.callFrame.url) return scriptName(node.callFrame.url);
  }
  return `no script: ${leaf.callFrame.functionName || '(anonymous)'}`;
}

/** The sampled function itself, when it is in a script whose URL contains `urlPart`. */
function ownFunction(leaf: ProfileNode, urlPart: string): string | undefined {
  const { url = '', functionName, lineNumber, columnNumber } = leaf.callFrame;
  if (!url.includes(urlPart)) return undefined;
  return `${functionName || '(anonymous)'} ${scriptName(url)}:${lineNumber}:${columnNumber}`;
}

const seconds = (us: number) => (us / 1e6).toFixed(1).padStart(7);
console.log(`${files.length} traces, ${seconds(sampled).trim()} s sampled in renderers`);
for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${seconds(us)} s ${((100 * us) / sampled).toFixed(1).padStart(5)} %  ${key}`);
}
