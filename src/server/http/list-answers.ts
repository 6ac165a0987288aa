import { createHash } from 'node:crypto';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ZodArray } from 'zod';
import type { Queryable } from '../db/client';
import { readListVersions, type VersionedList } from '../db/list-versions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How a GET answering with an array sends it (buildApp refuses to start when an /api GET with an
     * array answer leaves it out): `versioned` answers through `ctx.lists.send` (an ETag from the
     * lists' versions, 304 when unchanged); `small` is a short list sent the ordinary way.
     */
    list?: 'versioned' | 'small';
  }
}

/** What an answer is made of, and so which versions stand for it. */
export interface ListSource {
  /** the lists the answer reads: its ETag moves when any of their versions does */
  lists: VersionedList[];
  /** the one facilitator whose availability it reads; absent: everyone's */
  userId?: number;
  /** what else tells the answer apart: its range, its filters, anything it reads without a version */
  key: string;
}

/** Revalidation of list answers: the version read, the ETag and the 304 (ADR 81). */
export interface ListAnswers {
  /**
   * 304 with no body when the caller already holds the answer at the lists' current versions;
   * otherwise the value `read` gives, which the route's response schema serialises. The versions are
   * read before the rows, so an answer is never older than its ETag.
   */
  send<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    source: ListSource,
    read: () => Promise<T>,
  ): Promise<T | FastifyReply>;
}

export function createListAnswers(db: Queryable): ListAnswers {
  return {
    async send(request, reply, source, read) {
      if (request.routeOptions.config.list !== 'versioned') {
        throw new Error(`${request.routeOptions.url}: a list answer needs config.list 'versioned'`);
      }
      const at = await readListVersions(db, source.lists, source.userId);
      const subject = `${request.routeOptions.url}\u0000${source.userId ?? 'all'}\u0000${source.key}`;
      const etag = `W/"${createHash('sha256').update(`${at}\u0000${subject}`).digest('base64url').slice(0, 27)}"`;
      // Revalidate every time (no-cache), keep it out of shared caches (private); one answer per encoding.
      reply
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return read();
    },
  };
}

export type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

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
