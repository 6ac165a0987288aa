import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client';
import type { JsonArrayText } from '../db/json-list';
import { readListVersion, type VersionedList } from '../db/list-versions';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  version: string;
  body: JsonArrayText;
  encoded: Partial<Record<'br' | 'gzip', Buffer>>;
  bytes: number;
}

export interface ListCache {
  /**
   * Answer with this list (one facilitator's, or everyone's when userId is left out, over a range)
   * as stored, if nothing in it has changed since; otherwise build it, store it and answer.
   * Compressed forms are made once per stored answer and kept beside it.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    list: { name: VersionedList; userId?: number; from: string; to: string },
    build: () => Promise<JsonArrayText>,
  ): Promise<FastifyReply>;
  /** entries and bytes held, for tests and the bench */
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

/**
 * The staff grid asks for the same month again and again (every staff member, every refresh) while
 * it changes a few times a minute at most. Building a month for 1,000 facilitators costs PGlite
 * 35–50 ms and compressing it 10 ms more; answering from here costs one version read.
 * Versions come from the database (db/list-versions.ts), so every instance checks its own copy on
 * every request and no instance can serve another's stale answer. Memory is bounded by `maxBytes`,
 * least recently used first out.
 */
export function createListCache(db: Queryable, maxBytes = 64 * 1024 * 1024): ListCache {
  const entries = new Map<string, Entry>();
  const building = new Map<string, Promise<Entry>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const forget = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    bytes -= old.bytes;
  };

  // Map order is use order: the first key is the least recently used.
  const trim = () => {
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
  };

  const remember = (key: string, entry: Entry) => {
    forget(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    trim();
  };

  const entryFor = async (key: string, version: string, build: () => Promise<JsonArrayText>) => {
    const cached = entries.get(key);
    if (cached?.version === version) {
      hits++;
      // move to the back: most recently used
      entries.delete(key);
      entries.set(key, cached);
      return cached;
    }
    // Two requests for the same list at the same version share one build.
    const buildKey = `${version}\u0000${key}`;
    let pending = building.get(buildKey);
    if (!pending) {
      misses++;
      pending = build().then((body) => {
        const entry: Entry = { version, body, encoded: {}, bytes: body.length };
        remember(key, entry);
        return entry;
      });
      building.set(buildKey, pending);
      pending.finally(() => building.delete(buildKey)).catch(() => {});
    }
    return pending;
  };

  const encode = async (key: string, entry: Entry, encoding: 'br' | 'gzip') => {
    const done = entry.encoded[encoding];
    if (done) return done;
    const buffer =
      encoding === 'br'
        ? await brotli(entry.body, {
            params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 },
          })
        : await gzipAsync(entry.body, { level: 6 });
    if (entry.encoded[encoding]) return entry.encoded[encoding];
    entry.encoded[encoding] = buffer;
    entry.bytes += buffer.length;
    if (entries.get(key) === entry) {
      bytes += buffer.length;
      trim();
    }
    return buffer;
  };

  return {
    async send(request, reply, list, build) {
      const version = await readListVersion(db, list.name, list.userId);
      const key = `${list.name}:${list.userId ?? 'all'}:${list.from}:${list.to}`;
      const entry = await entryFor(key, version, build);
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      const encoding =
        entry.body.length < 1024 ? 'identity' : pickEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity') return reply.send(entry.body);
      const buffer = await encode(key, entry, encoding);
      // Already compressed: @fastify/compress leaves an answer with a Content-Encoding alone.
      return reply.header('content-encoding', encoding).send(buffer);
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}

/** The encoding to answer in: Brotli, then gzip, when the client accepts it (q above 0). */
export function pickEncoding(header: string | string[] | undefined): Encoding {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const accepted = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weightOf('br') > 0) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return 'identity';
}
