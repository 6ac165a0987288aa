import { pathMatches } from './faults';

export interface LoggedRequest {
  seq: number;
  /** Emulator clock (ms) when the request arrived. */
  at: number;
  method: string;
  /** Decoded path without the query. */
  path: string;
  query: string;
  /** HTTP status sent, or `null` when the answer was never sent (dropped or hung). */
  status: number | null;
  /** Which fault, if any, shaped the answer. */
  fault?: string;
  durationMs?: number;
  headers: { prefer?: string; ifMatch?: string; userAgent?: string; hasAuthorization: boolean };
}

export interface RequestQuery {
  method?: string;
  /** Glob or RegExp, as for fault rules. */
  path?: string | RegExp;
  status?: number | null;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  start(entry: Omit<LoggedRequest, 'seq' | 'status'>): LoggedRequest {
    const logged: LoggedRequest = { ...entry, seq: ++this.seq, status: null };
    this.entries.push(logged);
    // A demo can run for days; keep memory bounded.
    if (this.entries.length > 10_000) this.entries.splice(0, this.entries.length - 10_000);
    return logged;
  }

  find(query: RequestQuery = {}): LoggedRequest[] {
    return this.entries
      .filter(
        (e) =>
          (query.method === undefined || e.method === query.method.toUpperCase()) &&
          pathMatches(query.path, e.path) &&
          (query.status === undefined || e.status === query.status),
      )
      .map((e) => ({ ...e, headers: { ...e.headers } }));
  }

  count(query: RequestQuery = {}): number {
    return this.find(query).length;
  }

  clear(): void {
    this.entries = [];
  }
}
