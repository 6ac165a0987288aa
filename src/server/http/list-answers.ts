import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ZodArray } from 'zod';
import { isMonthSizedRange } from '../../shared/calendar';
import type { Queryable } from '../db/client';
import type { JsonArrayText } from '../db/json-list';
import { LIST_EPOCH, readListVersion, type VersionedList } from '../db/list-versions';
import { listAnswersKept, listVersions } from '../db/schema';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How a GET answering with an array sends it (buildApp refuses to start when an /api GET with an
     * array answer leaves it out): `versioned` answers through `ctx.lists.send` (kept per version, with
     * an ETag, 304 when unchanged); `small` is a short list sent the ordinary way.
     */
    list?: 'versioned' | 'small';
  }
}

/** Which list an answer is, and so which version stands for it and who may share it. */
export type ListSource =
  | { name: 'availability' | 'bookings'; userId?: number; from: string; to: string }
  | { name: 'notes'; from: string; to: string }
  | { name: 'users' };

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
export type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** Answers below this size are sent as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * How hard each encoding works (ADR 38). An answer's first request waits for the quick level; the
 * kept level is made afterwards, off that request, and replaces it for every later one. On the staff
 * month at 5,000 facilitators (13 MiB) Brotli 1 takes 22 ms of CPU for 771 KiB, Brotli 4 took
 * 120 ms for 680 KiB and Brotli 5 takes 170 ms for 605 KiB. Below `QUICK_FROM_BYTES` the kept level
 * is cheap enough to make at once. Above it, a list worth keeping (`worthKeeping`) also saves its
 * kept Brotli form in the database (ADR 56).
 */
const LEVELS: Record<Encoding, { quick: number; kept: number }> = {
  br: { quick: 1, kept: 5 },
  gzip: { quick: 1, kept: 6 },
};
const QUICK_FROM_BYTES = 256 * 1024;

/** A list's build, and the format of the text it writes (ADR 56). */
export interface ListBuild {
  build: () => Promise<JsonArrayText>;
  /**
   * what the build's text is written by (statementsFormat, db/json-list.ts): a list worth keeping
   * (worthKeeping) must give it; no other list is asked for it
   */
  format?: () => string;
}

/** Where failures that cost no answer are reported: reading or saving a kept answer. */
export interface ListAnswersLog {
  warn(details: object, message: string): void;
}

interface Entry {
  epoch: string;
  version: bigint;
  /** undefined for an answer read back from the database, which holds only its Brotli form */
  body?: JsonArrayText;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** encodings still at their quick level, their kept level being made */
  refining: Set<Encoding>;
  /** how to keep the answer's Brotli form in the database, for a list worth keeping (ADR 56) */
  keep?: { list: VersionedList; format: string };
}

export interface ListAnswers {
  /**
   * Answer with this list: 304 when the browser's copy (If-None-Match) is still the current version,
   * else from memory when nothing in the list has changed since it was built, else built now. The
   * version is read from the database first, so no answer is older than what was committed when the
   * request began. Compressed forms are kept beside the stored answer: a big one is first made
   * quickly, then once more at the kept level after that answer has gone (ADR 38). A big list's
   * kept Brotli form is also saved in the database, and read back when memory has no answer of the
   * current version (after a start, or on another instance; ADR 56).
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    source: ListSource,
    list: ListBuild,
  ): Promise<FastifyReply>;
  /**
   * entries and bytes held, builds and reuses, answers read back from the database (`kept`), for
   * tests and the bench
   */
  stats(): {
    entries: number;
    bytes: number;
    hits: number;
    misses: number;
    kept: number;
    notModified: number;
  };
  /** forget every answer held in memory, as a start does (the bench measures cold answers after it) */
  clear(): void;
  /**
   * resolves when no kept-level compression is still being made or saved (tests and the bench wait
   * for it)
   */
  settled(): Promise<void>;
}

/**
 * The list answers' one place: the version read, the ETag, the 304, the memory of built answers
 * (least recently used out past `maxBytes`) and their compressed forms (ADR 26).
 */
export function createListAnswers(
  db: Queryable,
  maxBytes = 64 * 1024 * 1024,
  log: ListAnswersLog = { warn: () => {} },
): ListAnswers {
  const cache = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) =>
      Math.max(
        1,
        (entry.body?.length ?? 0) + (entry.encoded.br?.length ?? 0) + (entry.encoded.gzip?.length ?? 0),
      ),
  });
  const building = new Map<string, Promise<Entry>>();
  let hits = 0;
  let misses = 0;
  let kept = 0;
  let notModified = 0;

  /**
   * The answer's Brotli form kept in the database at this version and format, if there is one; a
   * failed read is reported and the list built instead. The bytes cross the driver as base64:
   * PGlite's reading of a 720 KiB `bytea` took 65–115 ms, the same bytes as base64 text 8–17 ms.
   */
  const readKept = async (key: string, version: bigint, format: string): Promise<Buffer | undefined> => {
    const k = listAnswersKept;
    try {
      const result = (await db.execute(
        sql`select encode(${k.brotli}, 'base64') as brotli from ${k}
            where ${k.key} = ${key} and ${k.version} = ${version.toString()}::bigint and ${k.format} = ${format}`,
      )) as unknown as { rows: Array<{ brotli: string }> };
      const base64 = result.rows[0]?.brotli;
      return base64 === undefined ? undefined : Buffer.from(base64, 'base64');
    } catch (error) {
      log.warn({ err: error, list: key }, 'reading a kept list answer failed; building it');
      return undefined;
    }
  };

  /**
   * Saves the answer's kept Brotli form, only while its version is still the list's current one
   * (a write since, an account deletion included, makes it worthless) in the database it was read
   * from (after a restore the counters can reach that version again with other rows), and unless
   * the database holds this list at a newer version already (another instance got there first).
   * Then the list's other ranges kept at an older version go: they can never be sent again.
   */
  const saveKept = async (key: string, entry: Entry, keep: NonNullable<Entry['keep']>, brotli: Buffer) => {
    const k = listAnswersKept;
    const version = entry.version.toString();
    const stillCurrent = sql`${LIST_EPOCH} = ${entry.epoch}
      and (select coalesce(sum(${listVersions.version}), 0) from ${listVersions}
           where ${listVersions.list} = ${keep.list}) = ${version}::bigint`;
    await db.execute(
      sql`insert into ${k} (key, version, format, brotli)
          select ${key}, ${version}::bigint, ${keep.format}, decode(${brotli.toString('base64')}, 'base64')
          where ${stillCurrent}
          on conflict (key) do update
            set version = excluded.version, format = excluded.format, brotli = excluded.brotli
            where ${k.version} < excluded.version
               or (${k.version} = excluded.version and ${k.format} <> excluded.format)`,
    );
    await db.execute(
      sql`delete from ${k} where ${k.key} like ${`${sameList(key)}:%`} and ${k.version} < ${version}::bigint
          and ${stillCurrent}`,
    );
  };

  const entryFor = (
    key: string,
    at: { version: bigint; epoch: string },
    list: ListBuild,
    { keepAs, brotliWanted }: { keepAs: VersionedList | undefined; brotliWanted: boolean },
  ) => {
    const { version, epoch } = at;
    const cached = cache.get(key);
    // an answer read back from the database has only its Brotli form
    if (cached?.version === version && cached.epoch === epoch && (cached.body || brotliWanted)) {
      hits++;
      return Promise.resolve(cached);
    }
    if (keepAs && !list.format) throw new Error(`${key}: a list worth keeping needs the format of its text`);
    const keep = keepAs && list.format && { list: keepAs, format: list.format() };
    const fromKept = keep !== undefined && brotliWanted;
    // Requests for the same list at the same version share one build; a newer version never waits
    // for (or takes) an older one's.
    const buildKey = `${epoch}\u0000${version}\u0000${key}\u0000${fromKept ? 'br' : 'text'}`;
    let pending = building.get(buildKey);
    if (!pending) {
      misses++;
      pending = (fromKept ? readKept(key, version, keep.format) : Promise.resolve(undefined)).then(
        async (brotli) => {
          if (brotli) kept++;
          const entry: Entry = brotli
            ? { epoch, version, encoded: { br: brotli }, refining: new Set(), keep }
            : { epoch, version, body: await list.build(), encoded: {}, refining: new Set(), keep };
          const current = cache.peek(key);
          // a slower build of an older version must not replace a newer one
          if (current && current.epoch === epoch && current.version > version) return entry;
          // the text built for a client without Brotli joins the (kept-level) Brotli form read back
          // from the database for this version, so it is neither made nor saved again
          const readBack = current?.epoch === epoch && current.version === version && !current.body;
          if (readBack && current.encoded.br && entry.body) entry.encoded.br ??= current.encoded.br;
          cache.set(key, entry);
          return entry;
        },
      );
      building.set(buildKey, pending);
      pending.finally(() => building.delete(buildKey)).catch(() => {});
    }
    return pending;
  };

  const compress = (body: string, encoding: Encoding, level: number) =>
    encoding === 'br'
      ? brotli(body, {
          params: {
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_QUALITY]: level,
            [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gzipAsync(body, { level });

  // set again so the cache counts the compressed bytes too
  const recount = (key: string, entry: Entry) => {
    if (cache.peek(key) === entry) cache.set(key, entry);
  };

  const refinements = new Set<Promise<void>>();
  const refine = (key: string, entry: Entry, body: string, encoding: Encoding) => {
    // an answer a newer version replaced (or memory let go) while it was sent is not worth the work
    if (entry.refining.has(encoding) || cache.peek(key) !== entry) return;
    entry.refining.add(encoding);
    const done = compress(body, encoding, LEVELS[encoding].kept)
      .then(async (buffer) => {
        entry.encoded[encoding] = buffer;
        recount(key, entry);
        if (encoding === 'br' && entry.keep) {
          await saveKept(key, entry, entry.keep, buffer).catch((error: unknown) => {
            log.warn({ err: error, list: key }, 'saving a kept list answer failed');
          });
        }
      })
      // the quick form stays: an answer is still sent, only larger
      .catch(() => {})
      .finally(() => {
        entry.refining.delete(encoding);
        refinements.delete(done);
      });
    refinements.add(done);
  };

  /**
   * The stored form in this encoding, made now if missing; `afterSent` runs when it only is quick.
   * (An entry without its text always has the Brotli form it was read back with.)
   */
  const encode = async (
    key: string,
    entry: Entry,
    body: string,
    encoding: Encoding,
    afterSent: (then: () => void) => void,
  ) => {
    const done = entry.encoded[encoding];
    if (done) return done;
    const quick = body.length >= QUICK_FROM_BYTES;
    const level = quick ? LEVELS[encoding].quick : LEVELS[encoding].kept;
    const buffer = await compress(body, encoding, level);
    if (entry.encoded[encoding]) return entry.encoded[encoding];
    entry.encoded[encoding] = buffer;
    recount(key, entry);
    // the kept level is made once this answer has gone, so it never shares the CPU with it
    if (quick) afterSent(() => refine(key, entry, body, encoding));
    return buffer;
  };

  return {
    async send(request, reply, source, list) {
      if (request.routeOptions.config.list !== 'versioned') {
        throw new Error(`${request.routeOptions.url}: a list answer needs config.list 'versioned'`);
      }
      const at = await readListVersion(db, source.name, ownerOf(source));
      const key = listKey(source);
      const etag = `W/"${createHash('sha256').update(`${at.epoch}\u0000${key}\u0000${at.version}`).digest('base64url').slice(0, 27)}"`;
      // Revalidate every time (no-cache), keep it out of shared caches (private); one answer per encoding.
      reply
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        notModified++;
        return reply.code(304).send();
      }
      const accepted = chooseEncoding(request.headers['accept-encoding']);
      const brotliWanted = accepted === 'br';
      const keepAs = worthKeeping(source) ? source.name : undefined;
      const entry = await entryFor(key, at, list, { keepAs, brotliWanted });
      reply.type('application/json; charset=utf-8');
      const { body } = entry;
      if (body === undefined) {
        // entryFor hands an entry without its text only to a request that takes Brotli
        if (!brotliWanted || !entry.encoded.br)
          throw new Error(`${key}: a kept answer without its Brotli form`);
        return reply.header('content-encoding', 'br').send(entry.encoded.br);
      }
      const encoding = body.length < COMPRESS_FROM_BYTES ? null : accepted;
      if (!encoding) return reply.send(body);
      const buffer = await encode(key, entry, body, encoding, (then) => {
        // 'close' comes once: after the answer has gone, or when the client went away before the end
        reply.raw.once('close', then);
      });
      // Already compressed: @fastify/compress leaves an answer with a Content-Encoding alone.
      return reply.header('content-encoding', encoding).send(buffer);
    },
    stats: () => ({ entries: cache.size, bytes: cache.calculatedSize, hits, misses, kept, notModified }),
    clear: () => cache.clear(),
    async settled() {
      while (refinements.size > 0) await Promise.all(refinements);
    },
  };
}

/**
 * Lists whose answers are kept in the database once big (ADR 56): the accounts, and everyone's
 * availability or bookings over a month view, so a few ranges per month at most. One facilitator's
 * own lists stay small; weeks and the staff notes are quick to build.
 */
function worthKeeping(source: ListSource): boolean {
  if (source.name === 'users') return true;
  if (source.name === 'notes') return false;
  return source.userId === undefined && isMonthSizedRange(source.from, source.to);
}

/** The part of a key that names the list, without its range: `availability:all` of `availability:all:<range>`. */
function sameList(key: string): string {
  return key.split(':').slice(0, 2).join(':');
}

/**
 * The cache key, and the ETag's subject: an answer belongs to one list, one owner (or everyone)
 * and one range, so two users' answers never share a key and so never an ETag.
 */
function listKey(source: ListSource): string {
  if (source.name === 'users') return 'users';
  return `${source.name}:${ownerOf(source) ?? 'all'}:${source.from}:${source.to}`;
}

/** The one facilitator a list belongs to, or undefined for a list of everyone's. */
function ownerOf(source: ListSource): number | undefined {
  return 'userId' in source ? source.userId : undefined;
}

/** Brotli, then gzip, when the client accepts it (coding names are case-insensitive). */
export function chooseEncoding(header: string | string[] | undefined): Encoding | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return negotiate(text.toLowerCase(), ENCODINGS);
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/` is ignored on both sides; `*` matches. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/**
 * onRoute: an /api GET whose answer is an array must say how it sends it (config.list), so a new
 * list cannot skip the versions and ETags by forgetting them.
 */
export function requireListDecision(route: RouteOptions): void {
  const methods = [route.method].flat();
  if (!methods.includes('GET') || !route.url.startsWith('/api/')) return;
  const ok = (route.schema?.response as Record<string, unknown> | undefined)?.[200];
  if (ok instanceof ZodArray && !route.config?.list) {
    throw new Error(`${route.url} answers with a list: declare config.list ('versioned' or 'small')`);
  }
}
