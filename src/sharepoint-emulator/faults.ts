/**
 * Failures on demand, so the portal's client can be tested against throttling, overload,
 * lost responses and outages without a real tenant.
 */

/** Seconds as a number (`2` or `0.2`, sent as written), a raw header value, or an HTTP date. */
export type RetryAfter = number | string | Date;

export type FaultAction =
  /** Answer with this status and a Graph error body (429 → TooManyRequests, 503 → serviceNotAvailable…). */
  | { type: 'status'; status: number; retryAfter?: RetryAfter; code?: string; message?: string }
  /**
   * Answer with this body (JSON) and status (200 by default) instead of handling the request, and
   * store nothing: an answer in the wrong shape, as a broken proxy or a changed API might send.
   */
  | { type: 'reply'; status?: number; body: unknown }
  /** Drop the connection before handling: a network error, nothing is stored. */
  | { type: 'destroy' }
  /** Never answer and store nothing: the client's timeout fires. */
  | { type: 'hang' }
  /** Answer normally, but only after this many milliseconds. */
  | { type: 'delay'; ms: number }
  /**
   * Answer normally once the rule is removed (`DELETE /__emulator/faults/{id}`, a reset or the
   * server closing): a test holds a call for exactly as long as it looks at what the portal does
   * meanwhile, instead of guessing a delay.
   */
  | { type: 'hold' }
  /**
   * Handle the request (a create is stored) and then lose the answer: `destroy` drops the
   * socket, `hang` never answers, `delay` answers after `delayMs`. This is what makes a
   * retried create dangerous.
   */
  | { type: 'timeoutAfterStoring'; mode: 'hang' | 'destroy' | 'delay'; delayMs?: number };

export interface FaultRule {
  /** One method or several; any when absent. */
  method?: string | string[];
  /**
   * Glob on the decoded URL path (`*` matches any run of characters, `/` included), e.g.
   * `'*\/items'`, `'*\/items/delta'`, `'*\/oauth2/v2.0/token'`; or a RegExp. Any path when absent.
   */
  path?: string | RegExp;
  /** Let this many matching requests through before failing. */
  skip?: number;
  /** How many matching requests fail; default 1. `'always'` keeps the rule until removed. */
  times?: number | 'always';
  action: FaultAction;
}

export interface ActiveFault {
  id: number;
  rule: FaultRule;
  skipped: number;
  fired: number;
}

export type OutageMode = 'status' | 'destroy' | 'refuse';

export interface OutageOptions {
  /**
   * `status`: every call answers 503 (or `status`); `destroy`: every connection is dropped;
   * `refuse`: the server stops listening, so connections are refused.
   */
  mode?: OutageMode;
  status?: number;
  retryAfter?: RetryAfter;
  /** Whether the token endpoint is down too; default true. */
  includeToken?: boolean;
}

export interface LatencyOptions {
  ms: number;
  /** Extra random delay of up to this many milliseconds. */
  jitterMs?: number;
  /** Whether token requests are slowed too; default true. */
  includeToken?: boolean;
}

export function formatRetryAfter(value: RetryAfter): string {
  if (value instanceof Date) return value.toUTCString();
  return String(value);
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

export function pathMatches(pattern: string | RegExp | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  return (typeof pattern === 'string' ? globToRegExp(pattern) : pattern).test(path);
}

export const DEFAULT_ERROR_CODES: Record<number, string> = {
  429: 'TooManyRequests',
  500: 'generalException',
  502: 'badGateway',
  503: 'serviceNotAvailable',
  504: 'gatewayTimeout',
};

export class FaultEngine {
  private rules: ActiveFault[] = [];
  private nextId = 1;
  /** The open holds of `hold` rules, by rule id, kept after the rule's last use until released. */
  private holds = new Map<number, { released: Promise<void>; release: () => void }>();
  private holdOf = new WeakMap<FaultAction, Promise<void>>();
  outage: OutageOptions | undefined;
  latency: LatencyOptions | undefined;

  add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, skipped: 0, fired: 0 });
    if (rule.action.type === 'hold') {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.holds.set(id, { released, release });
      this.holdOf.set(rule.action, released);
    }
    return id;
  }

  /** Removes the rule and lets the calls it holds go on. */
  remove(id: number): void {
    this.drop(id);
    this.holds.get(id)?.release();
    this.holds.delete(id);
  }

  clear(): void {
    for (const { id } of this.rules) this.remove(id);
    for (const id of [...this.holds.keys()]) this.remove(id);
  }

  /** Resolves when the `hold` rule this action came from is removed. */
  released(action: FaultAction): Promise<void> {
    return this.holdOf.get(action) ?? Promise.resolve();
  }

  private drop(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  list(): ActiveFault[] {
    return this.rules.map((r) => ({ ...r }));
  }

  reset(): void {
    this.clear();
    this.outage = undefined;
    this.latency = undefined;
  }

  /** Finds the first rule for this request and consumes one use of it. */
  take(method: string, path: string): FaultAction | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      const methods =
        rule.method === undefined ? undefined : [rule.method].flat().map((m) => m.toUpperCase());
      if (methods && !methods.includes(method.toUpperCase())) continue;
      if (!pathMatches(rule.path, path)) continue;
      if (active.skipped < (rule.skip ?? 0)) {
        active.skipped++;
        continue;
      }
      active.fired++;
      const times = rule.times ?? 1;
      // used up, but a hold it placed stays until the rule is removed by id
      if (times !== 'always' && active.fired >= times) this.drop(active.id);
      return rule.action;
    }
    return undefined;
  }

  latencyFor(isToken: boolean, rng: () => number): number {
    const l = this.latency;
    if (!l || (isToken && l.includeToken === false)) return 0;
    return l.ms + (l.jitterMs ? Math.floor(rng() * l.jitterMs) : 0);
  }
}
