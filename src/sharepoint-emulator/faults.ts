/**
 * Failures on demand, so the portal's client can be tested against throttling, overload,
 * lost responses and outages without a real tenant.
 */

/** Seconds as a number (`2` or `0.2`, sent as written), a raw header value, or an HTTP date. */
export type RetryAfter = number | string | Date;

export type FaultAction =
  /** Answer with this status and a Graph error body (429 → TooManyRequests, 503 → serviceNotAvailable…). */
  | { type: 'status'; status: number; retryAfter?: RetryAfter; code?: string; message?: string }
  /** Drop the connection before handling: a network error, nothing is stored. */
  | { type: 'destroy' }
  /** Never answer and store nothing: the client's timeout fires. */
  | { type: 'hang' }
  /** Answer normally, but only after this many milliseconds. */
  | { type: 'delay'; ms: number }
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
  outage: OutageOptions | undefined;
  latency: LatencyOptions | undefined;

  add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, skipped: 0, fired: 0 });
    return id;
  }

  remove(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  clear(): void {
    this.rules = [];
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
      if (times !== 'always' && active.fired >= times) this.remove(active.id);
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
