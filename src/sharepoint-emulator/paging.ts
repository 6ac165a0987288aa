import { createRng, type Rng, randomInt } from './random';

export interface PagingOptions {
  /** Page size when the request has no `$top`. */
  defaultPageSize?: number;
  /** Cap applied to `$top` (Graph caps list items at 5,000). Lower it to force short pages. */
  maxPageSize?: number;
  /** Each page holds a random number of items between 0 and the page size. */
  randomPageSizes?: boolean;
  /** With `randomPageSizes`, the chance that a page is empty even though items remain. */
  emptyPageProbability?: number;
  /** Return items in a seeded random order instead of ascending id. */
  shuffle?: boolean;
  seed?: string | number;
}

export type ResolvedPaging = Required<PagingOptions>;

export const DEFAULT_PAGING: ResolvedPaging = {
  defaultPageSize: 200,
  maxPageSize: 5000,
  randomPageSizes: false,
  emptyPageProbability: 0.2,
  shuffle: false,
  seed: 1,
};

export class Pager {
  private options: ResolvedPaging = { ...DEFAULT_PAGING };
  private rng: Rng = createRng(DEFAULT_PAGING.seed);
  /** Shuffled result orders, kept server-side because a shuffled page cannot be resumed from an id. */
  private snapshots = new Map<string, number[]>();
  private snapshotCounter = 0;

  configure(options: PagingOptions): ResolvedPaging {
    this.options = { ...this.options, ...options };
    if (options.seed !== undefined) this.rng = createRng(options.seed);
    return { ...this.options };
  }

  reset(): void {
    this.options = { ...DEFAULT_PAGING };
    this.rng = createRng(DEFAULT_PAGING.seed);
    this.snapshots.clear();
  }

  get settings(): ResolvedPaging {
    return { ...this.options };
  }

  random(): Rng {
    return this.rng;
  }

  /** How many items this page holds, given the request's `$top`. */
  pageSize(top: number | undefined): number {
    const size = Math.max(1, Math.min(top ?? this.options.defaultPageSize, this.options.maxPageSize));
    if (!this.options.randomPageSizes) return size;
    // Capped so a client following nextLink always gets to the end.
    if (this.rng() < Math.min(this.options.emptyPageProbability, 0.9)) return 0;
    return randomInt(this.rng, 0, size);
  }

  saveSnapshot(ids: number[]): string {
    const key = `s${++this.snapshotCounter}`;
    this.snapshots.set(key, ids);
    // Bounded so a long-running demo does not grow without limit.
    if (this.snapshots.size > 500) {
      const oldest = this.snapshots.keys().next().value;
      if (oldest !== undefined) this.snapshots.delete(oldest);
    }
    return key;
  }

  snapshot(key: string): number[] | undefined {
    return this.snapshots.get(key);
  }
}

/** Opaque to clients, but shaped like SharePoint's (base64 of `Paged=TRUE&p_ID=…`). */
export function encodeToken(params: Record<string, string | number>): string {
  const text = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function decodeToken(token: string): Record<string, string> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const out: Record<string, string> = {};
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    try {
      out[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1));
    } catch {
      return undefined;
    }
  }
  return out;
}
