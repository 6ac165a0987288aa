/**
 * Access tokens from Entra ID's token endpoint: client credentials
 * (with a client secret, or a certificate's signed client assertion, ADR 0017) or the password grant,
 * cached until about five minutes before they expire.
 */
import { CLIENT_ASSERTION_TYPE, clientAssertion } from '../auth/client-certificate';
import { SharePointError } from './errors';
import { readAnswer, tokenAnswer, tokenRefusal } from './graph-answers';
import {
  LATER_STATUSES,
  PauseGate,
  parseRetryAfter,
  type RetryTimings,
  resolveTimings,
  withRetries,
} from './retry';

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** Renew this long before the token expires. */
const RENEW_MARGIN_MS = 5 * 60_000;

export type TokenCredential =
  | { grant: 'client_credentials'; clientSecret: string }
  | { grant: 'client_credentials'; certificate: { certificatePem: string; privateKeyPem: string } }
  | { grant: 'password'; username: string; password: string; clientSecret?: string };

export interface TokenProviderOptions {
  authorityHost: string;
  tenantId: string;
  clientId: string;
  credential: TokenCredential;
  userAgent?: string;
  timings?: Partial<RetryTimings>;
  fetch?: typeof fetch;
}

export interface TokenSource {
  /** A valid token; `force` skips the cache (after Graph said 401). */
  getToken(force?: boolean): Promise<string>;
}

export class TokenProvider implements TokenSource {
  private cached: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private readonly timings: RetryTimings;
  private readonly gate: PauseGate;
  private readonly fetchFn: typeof fetch;
  /** How many tokens were fetched (tests and diagnostics). */
  fetchedCount = 0;

  constructor(private readonly options: TokenProviderOptions) {
    this.timings = resolveTimings(options.timings);
    this.gate = new PauseGate(this.timings);
    this.fetchFn = options.fetch ?? fetch;
  }

  async getToken(force = false): Promise<string> {
    if (!force && this.cached && this.timings.now() < this.cached.renewAt) return this.cached.token;
    if (force && this.cached) this.cached = undefined;
    // Concurrent callers share one request.
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private tokenUrl(): string {
    const host = this.options.authorityHost.replace(/\/+$/, '');
    return `${host}/${encodeURIComponent(this.options.tenantId)}/oauth2/v2.0/token`;
  }

  /** A new form per attempt: a client assertion is single-use and short-lived. */
  private async form(): Promise<string> {
    const { clientId, credential } = this.options;
    const form = new URLSearchParams({ client_id: clientId, scope: GRAPH_SCOPE });
    if (credential.grant === 'client_credentials' && 'certificate' in credential) {
      form.set('grant_type', 'client_credentials');
      form.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
      form.set(
        'client_assertion',
        await clientAssertion({
          ...credential.certificate,
          clientId,
          tokenUrl: this.tokenUrl(),
          now: this.timings.now(),
        }),
      );
    } else if (credential.grant === 'client_credentials') {
      form.set('grant_type', 'client_credentials');
      form.set('client_secret', credential.clientSecret);
    } else {
      form.set('grant_type', 'password');
      form.set('username', credential.username);
      form.set('password', credential.password);
      if (credential.clientSecret) form.set('client_secret', credential.clientSecret);
    }
    return form.toString();
  }

  /**
   * The token endpoint under the same retry policy as Graph (retry.ts), with a gate of its own (it is
   * another host). Inside the policy its failures are plain HTTP and network failures; the one that
   * ends it is handed on as an 'auth' error, which the Graph policy never repeats: a token the
   * endpoint would not give after maxAttempts is not asked for again by every Graph attempt.
   */
  private async fetchToken(): Promise<string> {
    const { timings } = this;
    let answer: { token: string; lifetimeMs: number };
    try {
      answer = await withRetries(timings, this.gate, () => this.requestToken());
    } catch (error) {
      throw asSignInError(error, this.options.authorityHost);
    }
    // Short-lived tokens (tests) are renewed halfway instead of never being cached.
    const margin = Math.min(RENEW_MARGIN_MS, answer.lifetimeMs / 2);
    this.cached = { token: answer.token, renewAt: timings.now() + answer.lifetimeMs - margin };
    this.fetchedCount++;
    return answer.token;
  }

  /** One request to the token endpoint. */
  private async requestToken(): Promise<{ token: string; lifetimeMs: number }> {
    const { timings } = this;
    const form = await this.form();
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(this.tokenUrl(), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          ...(this.options.userAgent ? { 'User-Agent': this.options.userAgent } : {}),
        },
        body: form,
        signal: AbortSignal.timeout(timings.requestTimeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new SharePointError(
        'network',
        `Could not reach the sign-in service at ${this.options.authorityHost}: ${networkReason(error)}`,
        { retryable: true, cause: error },
      );
    }
    if (response.ok) {
      const body = readAnswer(tokenAnswer, safeJson(text), "The sign-in service's answer");
      return { token: body.access_token, lifetimeMs: (body.expires_in ?? 3599) * 1000 };
    }
    const refusal = tokenRefusal.safeParse(safeJson(text)).data;
    const code = refusal?.error;
    const description = refusal?.error_description ? firstLine(refusal.error_description) : '';
    throw new SharePointError(
      'http',
      `Sign-in refused (HTTP ${response.status}${code ? ` ${code}` : ''})${description ? `: ${description}` : ''}`,
      {
        status: response.status,
        code,
        retryable: LATER_STATUSES.has(response.status),
        retryAfterMs: parseRetryAfter(
          response.headers.get('retry-after'),
          timings.now(),
          timings.maxRetryAfterMs,
        ),
      },
    );
  }
}

/** The failure that ended a token request, as callers see it: the sign-in did not work. */
function asSignInError(error: unknown, authorityHost: string): SharePointError {
  if (!(error instanceof SharePointError)) {
    return new SharePointError('auth', `Could not get an access token from ${authorityHost}.`, {
      retryable: true,
      cause: error,
    });
  }
  if (error.kind === 'auth') return error;
  return new SharePointError('auth', error.message, {
    ...error.details,
    cause: error.details.cause ?? error,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** AADSTS descriptions carry trace ids and timestamps after the first sentence or line. */
function firstLine(text: string): string {
  const line = text.split(/\r?\n/)[0] ?? '';
  return line.replace(/\s+Trace ID:.*$/i, '').trim();
}

export function networkReason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time (timed out)';
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    if (cause && typeof cause.code === 'string') return `${cause.code}`;
    if (cause && typeof cause.message === 'string') return cause.message;
    return error.message;
  }
  return String(error);
}
