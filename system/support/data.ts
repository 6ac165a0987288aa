/**
 * Data helpers for the fault and scale-out suites: make facilitators through the staff API, send a
 * request with a deadline (a hang is a failure, not a wait), and look into either database directly
 * (PostgreSQL over a plain connection; the embedded one only while no portal has it open).
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ApiClient } from './http';

export interface Facilitator {
  id: number;
  username: string;
  password: string;
}

/** Facilitator accounts made by staff through the API, numbered `${prefix}-1@example.org` … */
export async function createFacilitators(
  staff: ApiClient,
  prefix: string,
  count: number,
  withFreelancerIds = false,
): Promise<Facilitator[]> {
  const made: Facilitator[] = [];
  for (let i = 1; i <= count; i++) {
    const username = `${prefix}-${i}@example.org`;
    const password = `${prefix}-password-${i}`;
    const response = await staff.request<{ id: number }>('POST', '/api/staff/users', {
      username,
      password,
      displayName: `${prefix} ${i}`,
      ...(withFreelancerIds ? { freelancerId: `${prefix.toUpperCase()}-${i}` } : {}),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`create ${username}: ${response.status} ${JSON.stringify(response.body)}`);
    made.push({ id: response.body.id, username, password });
  }
  return made;
}

export interface Outcome<T = unknown> {
  /** HTTP status, or 0 when no answer came (connection refused or reset, or the deadline passed) */
  status: number;
  body: T;
  ms: number;
  /** why there was no answer */
  error?: string;
  contentType?: string;
}

/** One request with the client's cookie and a deadline; never throws. */
export async function send<T = unknown>(
  client: ApiClient,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 15_000,
): Promise<Outcome<T>> {
  const started = performance.now();
  try {
    const response = await fetch(client.baseUrl + path, {
      method,
      headers: {
        ...(client.cookie ? { cookie: client.cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text, the suites check for it
    }
    return {
      status: response.status,
      body: parsed as T,
      ms: performance.now() - started,
      contentType: response.headers.get('content-type') ?? '',
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return {
      status: 0,
      body: null as T,
      ms: performance.now() - started,
      error: cause?.code ?? (error instanceof Error ? error.name : String(error)),
    };
  }
}

/** Run SQL on PostgreSQL with a short-lived connection. */
export async function pgQuery<R extends Record<string, unknown> = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Open the embedded database of a stopped portal (DATA_DIR) and run `work` on it. Never while a
 * portal runs on it: PGlite is single-process.
 */
export async function withPgliteDir<T>(dataDir: string, work: (db: PGlite) => Promise<T>): Promise<T> {
  const db = new PGlite(join(dataDir, 'pglite'));
  await db.waitReady;
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Poll until `check` returns a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * A client behind a load balancer without sticky sessions: each request goes to the next instance
 * in turn, with the one cookie. `via` says which instance answered.
 */
export class RoundRobinClient {
  cookie = '';
  private turn = 0;
  constructor(readonly urls: string[]) {}

  async request<T = unknown>(method: string, path: string, body?: unknown) {
    const client = new ApiClient(this.urls[this.turn++ % this.urls.length]!);
    client.cookie = this.cookie;
    const response = await client.request<T>(method, path, body);
    this.cookie = client.cookie;
    return { ...response, via: client.baseUrl };
  }

  /** The same request through one chosen instance. */
  async requestVia<T = unknown>(instance: number, method: string, path: string, body?: unknown) {
    const client = new ApiClient(this.urls[instance]!);
    client.cookie = this.cookie;
    const response = await client.request<T>(method, path, body);
    this.cookie = client.cookie;
    return response;
  }
}
