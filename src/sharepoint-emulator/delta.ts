import { GraphError } from './errors';
import { decodeToken, encodeToken } from './paging';
import type { StoredItem, StoredList } from './store';

/**
 * Where a delta round stands. A round returns every change with a sequence number in
 * (since, upTo]; `after` is how far the pages have got. Changes made during a round get a
 * sequence number above `upTo`, so they surface in the next round instead of being lost.
 */
export interface DeltaCursor {
  listId: string;
  epoch: number;
  since: number;
  upTo: number;
  after: number;
  issuedAt: number;
}

/** Quirks of the real feed that a client has to survive. */
export interface DeltaQuirks {
  /** How deletions are written: Graph's `deleted` facet (default) or the directory-style `@removed`. */
  deletedAs?: 'deleted' | 'removed';
  /** Repeat the first entry of each non-empty page at its end: the same item twice, last wins. */
  repeatItems?: boolean;
  /** One-shot: the next delta page also carries an error object without an id, as the service once did. */
  errorEntryNextPage?: boolean;
  /** Changed items arrive without `fields` even when `$expand=fields` was asked, as Graph sometimes does. */
  omitFields?: boolean;
}

export type DeltaEntry = { kind: 'item'; item: StoredItem } | { kind: 'deleted'; id: number };

export function encodeDeltaCursor(c: DeltaCursor): string {
  return encodeToken({ l: c.listId, e: c.epoch, s: c.since, u: c.upTo, a: c.after, t: c.issuedAt });
}

export function decodeDeltaCursor(token: string): DeltaCursor | undefined {
  const p = decodeToken(token);
  if (!p || p.l === undefined) return undefined;
  const nums = [p.e, p.s, p.u, p.a, p.t].map(Number);
  if (nums.some((n) => !Number.isSafeInteger(n))) return undefined;
  const [epoch, since, upTo, after, issuedAt] = nums as [number, number, number, number, number];
  return { listId: p.l, epoch, since, upTo, after, issuedAt };
}

export interface DeltaCheck {
  nowMs: number;
  retentionMs: number;
  /** Where a client should restart a full enumeration; sent as `Location` with the 410. */
  restartUrl: string;
}

/** Delta tokens die when invalidated or older than the retention; Graph then answers 410. */
export function assertCursorUsable(list: StoredList, cursor: DeltaCursor, check: DeltaCheck): void {
  if (cursor.listId !== list.info.id) {
    throw new GraphError(400, 'invalidRequest', 'The delta token does not belong to this list.');
  }
  const expired = check.nowMs - cursor.issuedAt > check.retentionMs;
  if (cursor.epoch !== list.deltaEpoch || expired) {
    throw new GraphError(
      410,
      'resyncRequired',
      'The delta token is no longer valid; a full resynchronisation is required.',
      { Location: check.restartUrl },
      'resyncChangesApplyDifferences',
    );
  }
}

/** Changes in (after, upTo], oldest first. The initial round (since 0) lists live items only. */
export function pendingEntries(list: StoredList, cursor: DeltaCursor): Array<DeltaEntry & { seq: number }> {
  const out: Array<DeltaEntry & { seq: number }> = [];
  for (const item of list.items.values()) {
    if (item.changeSeq > cursor.after && item.changeSeq <= cursor.upTo)
      out.push({ kind: 'item', item, seq: item.changeSeq });
  }
  if (cursor.since > 0) {
    for (const [id, seq] of list.tombstones) {
      if (seq > cursor.after && seq <= cursor.upTo) out.push({ kind: 'deleted', id, seq });
    }
  }
  return out.sort((a, b) => a.seq - b.seq);
}
