/**
 * An error a service raises on purpose: its status and message are safe to show to the caller.
 * Anything else that escapes a handler becomes a bare 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 503,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string[]>) =>
  new AppError(400, message, fieldErrors);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const forbidden = (message = 'You do not have permission to do that') => new AppError(403, message);

/** PostgreSQL's unique_violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23505';
}

/**
 * PostgreSQL gave up on a transaction because of another one running at the same moment: a
 * serialisation failure (40001) or a deadlock (40P01). Nothing of it was kept; asking again works.
 */
export function isConcurrencyFailure(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === '40001' || code === '40P01';
}

export const CONCURRENCY_FAILURE_MESSAGE =
  'Someone else changed this at the same moment, so nothing was saved. Please try again.';

export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  // drizzle wraps driver errors; the code sits on the cause
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// SQLSTATE classes and codes that mean "the database cannot be reached or is going away", not "this
// query is wrong": 08 connection exception, 57P01-57P03 shutdown / crash / starting up, 53300 too
// many connections.
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres raises these without a code when a connection is lost or cannot be had in time.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Query read timeout',
];

/**
 * True when the database is unreachable (PostgreSQL restarting, stopped, failing over, out of
 * connections): the request may work again in a moment, so it is answered 503, not 500. SharePoint
 * network errors never reach here raw (the connector wraps them), so socket codes mean the database.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_NODE_CODES.has(code)))
      return true;
    if (
      typeof message === 'string' &&
      UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m) || message.includes(m))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is not available right now. Please try again in a moment.';

/** Fields of a PostgreSQL error (pg, PGlite) that name what failed without quoting any value. */
const SAFE_DATABASE_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'dataType', 'routine'];

/**
 * An error as it may be logged. A database error is reduced to its SQLSTATE and the names of what
 * failed: Drizzle's wrapper message holds the whole statement and its parameters (a password hash,
 * an imported username), and the driver's message and detail quote values too ("Key (…)=(…)").
 * Anything else is logged as it is.
 */
export function loggableError(error: unknown): unknown {
  const driver = databaseErrorOf(error);
  if (!driver) return error;
  const safe: Record<string, unknown> = { type: 'DatabaseError' };
  for (const field of SAFE_DATABASE_FIELDS) {
    const value = (driver as Record<string, unknown>)[field];
    if (typeof value === 'string' && value) safe[field] = value;
  }
  // where it happened in our code, without the first line (the message)
  const stack = (error as { stack?: unknown }).stack;
  if (typeof stack === 'string') {
    safe.stack = stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n');
  }
  return safe;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The driver's error when `error` comes from the database (else undefined). */
function databaseErrorOf(error: unknown): Record<string, unknown> | undefined {
  const chain: Record<string, unknown>[] = [];
  for (
    let current = error;
    current && typeof current === 'object' && chain.length < 5;
    current = (current as { cause?: unknown }).cause
  ) {
    chain.push(current as Record<string, unknown>);
  }
  const driver = chain.find((e) => SQLSTATE.test(String(e.code)));
  if (driver) return driver;
  return chain.some((e) => 'params' in e || 'query' in e) ? {} : undefined;
}

/**
 * One line about an error, for logs and stored job states: its message, or for a database error
 * only its SQLSTATE and constraint (see loggableError).
 */
export function describeError(error: unknown): string {
  const driver = databaseErrorOf(error);
  if (!driver) return error instanceof Error ? error.message : String(error);
  const constraint = typeof driver.constraint === 'string' ? ` on ${driver.constraint}` : '';
  return `database error ${typeof driver.code === 'string' ? driver.code : 'unknown'}${constraint}`;
}
