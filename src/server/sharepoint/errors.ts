/** Failures of the SharePoint connector, classified so callers can decide what to do next. */

export type SharePointErrorKind =
  /** the settings are missing or incomplete: nothing was sent */
  | 'not-configured'
  /** the token endpoint refused the credentials (or could not be reached) */
  | 'auth'
  /** Graph answered with an error status */
  | 'http'
  /** no answer: connection refused or dropped, or the call timed out */
  | 'network'
  /** the answer was not what the protocol promises (not JSON, an item without id, …) */
  | 'protocol';

/** What a failure is counted as: its kind, or `other` for an error that is not a SharePointError. */
export type SharePointFailureKind = SharePointErrorKind | 'other';

export function failureKind(error: unknown): SharePointFailureKind {
  return error instanceof SharePointError ? error.kind : 'other';
}

export class SharePointError extends Error {
  constructor(
    readonly kind: SharePointErrorKind,
    message: string,
    readonly details: {
      /** HTTP status, when there was an answer */
      status?: number;
      /** Graph `error.code` or the token endpoint's `error` */
      code?: string;
      /** worth trying again later (throttling, outages, timeouts) */
      retryable?: boolean;
      /** how long the server asked us to wait, when it said */
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SharePointError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get code(): string | undefined {
    return this.details.code;
  }

  get retryable(): boolean {
    return this.details.retryable === true;
  }
}

export function isSharePointError(error: unknown): error is SharePointError {
  return error instanceof SharePointError;
}

/** True for a Graph answer with this status (and, when given, this error code). */
export function hasStatus(error: unknown, status: number, code?: string): boolean {
  return (
    error instanceof SharePointError &&
    error.status === status &&
    (code === undefined || error.code?.toLowerCase() === code.toLowerCase())
  );
}

/** A short, safe description for logs, scheduler state and API messages. */
export function describeError(error: unknown): string {
  if (error instanceof SharePointError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
