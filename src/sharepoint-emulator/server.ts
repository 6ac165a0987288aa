import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AuthOptions, AuthService } from './auth';
import { Clock } from './clock';
import { type ControlDeps, createControl, DEFAULT_DELTA_RETENTION_MS, type EmulatorControl } from './control';
import { handleControlRequest } from './control-http';
import type { DeltaQuirks } from './delta';
import { GraphError, graphErrorBody } from './errors';
import { DEFAULT_ERROR_CODES, type FaultAction, FaultEngine, formatRetryAfter } from './faults';
import { GraphRouter } from './graph-routes';
import { Pager, type PagingOptions } from './paging';
import { type LoggedRequest, RequestLog } from './request-log';
import { Store } from './store';
import { type SubscriptionOptions, SubscriptionService } from './subscriptions';

export interface EmulatorOptions extends AuthOptions, SubscriptionOptions {
  /** Default 0: the OS picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  paging?: PagingOptions;
  deltaTokenRetentionMs?: number;
  /** Largest accepted request body. */
  maxBodyBytes?: number;
}

const GRAPH_PREFIX = '/v1.0';
const TOKEN_PATH = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;
const SUBSCRIPTIONS_PATH = /^\/v1\.0\/subscriptions(?:\/([^/]+))?$/;
const JSON_GRAPH =
  'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  contentType?: string;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export class EmulatorServer {
  readonly clock = new Clock();
  readonly store: Store;
  readonly auth: AuthService;
  readonly faults = new FaultEngine();
  readonly pager = new Pager();
  readonly log = new RequestLog();
  readonly control: EmulatorControl;
  readonly subscriptions: SubscriptionService;
  private readonly router: GraphRouter;
  private readonly server: Server;
  private readonly deltaRetention = { ms: DEFAULT_DELTA_RETENTION_MS };
  private readonly deltaQuirks: DeltaQuirks = {};
  /** Responses deliberately never answered; ended on close so the process can exit. */
  private readonly hung = new Set<ServerResponse>();
  private listening = false;
  private closed = false;
  private boundPort = 0;
  private readonly host: string;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: EmulatorOptions = {}) {
    this.host = options.host ?? '127.0.0.1';
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.store = new Store(this.clock);
    this.auth = new AuthService(this.clock, options);
    this.subscriptions = new SubscriptionService(this.store, this.clock, options);
    if (options.paging) this.pager.configure(options.paging);
    if (options.deltaTokenRetentionMs !== undefined) this.deltaRetention.ms = options.deltaTokenRetentionMs;
    this.router = new GraphRouter({
      store: this.store,
      pager: this.pager,
      clock: this.clock,
      graphBaseUrl: () => this.graphBaseUrl,
      deltaRetentionMs: () => this.deltaRetention.ms,
      deltaQuirks: this.deltaQuirks,
    });
    const deps: ControlDeps = {
      store: this.store,
      auth: this.auth,
      faults: this.faults,
      pager: this.pager,
      log: this.log,
      clock: this.clock,
      deltaRetention: this.deltaRetention,
      deltaQuirks: this.deltaQuirks,
      subscriptions: this.subscriptions,
      setListening: (on) => (on ? this.listen() : this.stopListening()),
    };
    this.control = createControl(deps);
    this.server = createServer((req, res) => {
      this.onRequest(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          this.send(res, {
            status: 500,
            body: graphErrorBody('generalException', String(err), this.clock.now()),
          });
        }
      });
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get authorityHost(): string {
    return `http://${this.host}:${this.boundPort}`;
  }

  get graphBaseUrl(): string {
    return `${this.authorityHost}${GRAPH_PREFIX}`;
  }

  async listen(): Promise<void> {
    if (this.listening || this.closed) return;
    // After a `refuse` outage the same port is reused so URLs handed out stay valid.
    const port = this.boundPort || this.options.port || 0;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, this.host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    this.boundPort = (this.server.address() as AddressInfo).port;
    this.listening = true;
  }

  private async stopListening(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.dropConnections();
    await closed;
  }

  private dropConnections(): void {
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    this.server.closeAllConnections();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopListening();
    this.dropConnections();
    // held calls end with their dropped connections instead of waiting for ever
    this.faults.clear();
  }

  private send(res: ServerResponse, reply: Reply): void {
    if (res.destroyed || res.headersSent) return;
    const headers: Record<string, string> = { 'request-id': randomUUID(), ...reply.headers };
    if (reply.body === undefined || reply.status === 204) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const payload = JSON.stringify(reply.body);
    headers['Content-Type'] = reply.contentType ?? JSON_GRAPH;
    headers['Content-Length'] = String(Buffer.byteLength(payload));
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  private errorReply(err: GraphError, clientRequestId: string | undefined): Reply {
    return {
      status: err.status,
      headers: err.headers,
      body: graphErrorBody(err.code, err.message, this.clock.now(), clientRequestId, err.innerCode),
    };
  }

  private statusFault(
    status: number,
    retryAfter: string | undefined,
    code?: string,
    message?: string,
  ): Reply {
    const headers: Record<string, string> = {};
    if (retryAfter !== undefined) headers['Retry-After'] = retryAfter;
    const err = new GraphError(
      status,
      code ?? DEFAULT_ERROR_CODES[status] ?? 'generalException',
      message ?? (status === 429 ? 'Please retry again later.' : 'The service is temporarily unavailable.'),
      headers,
    );
    return this.errorReply(err, undefined);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith('/__emulator/')) {
      const body = await readBody(req, this.maxBodyBytes);
      const reply = await handleControlRequest(this, method, url, body);
      this.send(res, { ...reply, contentType: 'application/json; charset=utf-8' });
      return;
    }

    const path = safeDecode(url.pathname);
    const tokenMatch = TOKEN_PATH.exec(url.pathname);
    const isGraph = url.pathname === GRAPH_PREFIX || url.pathname.startsWith(`${GRAPH_PREFIX}/`);
    const started = Date.now();
    const entry = this.log.start({
      at: this.clock.now(),
      method,
      path,
      query: url.search,
      headers: {
        prefer: [req.headers.prefer ?? []].flat().join(', ') || undefined,
        ifMatch: req.headers['if-match'],
        userAgent: req.headers['user-agent'],
        hasAuthorization: req.headers.authorization !== undefined,
      },
    });
    const finish = (reply: Reply | null, fault?: string) => {
      if (fault) entry.fault = fault;
      entry.durationMs = Date.now() - started;
      if (reply) {
        entry.status = reply.status;
        this.send(res, reply);
      }
    };

    let body: Buffer;
    try {
      body = await readBody(req, this.maxBodyBytes);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        finish(
          this.errorReply(
            new GraphError(413, 'requestTooLarge', 'The request body is too large.'),
            undefined,
          ),
        );
        return;
      }
      throw err;
    }

    const outage = this.faults.outage;
    if (outage && (isGraph || (tokenMatch && outage.includeToken !== false))) {
      if (outage.mode === 'destroy' || outage.mode === 'refuse') {
        finish(null, 'outage');
        req.socket.destroy();
        return;
      }
      const retryAfter = outage.retryAfter === undefined ? undefined : formatRetryAfter(outage.retryAfter);
      finish(this.statusFault(outage.status ?? 503, retryAfter), 'outage');
      return;
    }

    const action: FaultAction | undefined = this.faults.take(method, path);
    const latency = this.faults.latencyFor(Boolean(tokenMatch), Math.random);
    if (latency > 0) await sleep(latency);

    if (action) {
      switch (action.type) {
        case 'destroy':
          finish(null, 'destroy');
          req.socket.destroy();
          return;
        case 'hang':
          finish(null, 'hang');
          this.hung.add(res);
          res.on('close', () => this.hung.delete(res));
          return;
        case 'delay':
          entry.fault = 'delay';
          await sleep(action.ms);
          break;
        case 'hold':
          entry.fault = 'hold';
          await this.faults.released(action);
          break;
        case 'status':
          finish(
            this.statusFault(
              action.status,
              action.retryAfter === undefined ? undefined : formatRetryAfter(action.retryAfter),
              action.code,
              action.message,
            ),
            `status ${action.status}`,
          );
          return;
        case 'reply':
          finish({ status: action.status ?? 200, body: action.body }, 'reply');
          return;
        case 'timeoutAfterStoring':
          break;
      }
    }

    const reply =
      isGraph && SUBSCRIPTIONS_PATH.test(path)
        ? await this.subscriptionReply(req, method, path, body)
        : this.dispatch(req, method, url, tokenMatch?.[1], isGraph, body);
    if (action?.type === 'timeoutAfterStoring') {
      entry.fault = `timeoutAfterStoring:${action.mode}`;
      // The work is done and stored; only the answer is lost, as when a proxy times out.
      if (action.mode === 'destroy') {
        finish(null);
        req.socket.destroy();
        return;
      }
      if (action.mode === 'hang') {
        finish(null);
        this.hung.add(res);
        res.on('close', () => this.hung.delete(res));
        return;
      }
      await sleep(action.delayMs ?? 1000);
      if (res.destroyed) {
        finish(null);
        return;
      }
    }
    finish(reply);
  }

  /** `/subscriptions` answers after the validation handshake, so it is the one asynchronous route. */
  private async subscriptionReply(
    req: IncomingMessage,
    method: string,
    path: string,
    raw: Buffer,
  ): Promise<Reply> {
    try {
      this.auth.verify(req.headers.authorization);
      let body: Record<string, unknown> = {};
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new GraphError(400, 'invalidRequest', 'Unable to read JSON request payload.');
        }
      }
      const id = SUBSCRIPTIONS_PATH.exec(path)?.[1];
      let result: { status: number; body?: unknown };
      if (!id && method === 'POST') result = await this.subscriptions.create(body);
      else if (id && method === 'GET') result = this.subscriptions.get(decodeURIComponent(id));
      else if (id && method === 'PATCH') result = this.subscriptions.renew(decodeURIComponent(id), body);
      else if (id && method === 'DELETE') result = this.subscriptions.remove(decodeURIComponent(id));
      else throw new GraphError(405, 'methodNotAllowed', `${method} is not supported here.`);
      return { status: result.status, body: result.body, contentType: JSON_GRAPH };
    } catch (err) {
      if (err instanceof GraphError) return this.errorReply(err, undefined);
      throw err;
    }
  }

  private dispatch(
    req: IncomingMessage,
    method: string,
    url: URL,
    tenant: string | undefined,
    isGraph: boolean,
    raw: Buffer,
  ): Reply {
    const clientRequestId = req.headers['client-request-id'] as string | undefined;
    try {
      if (tenant !== undefined) {
        if (method !== 'POST')
          throw new GraphError(405, 'methodNotAllowed', 'Use POST for the token endpoint.');
        const result = this.auth.issue(
          safeDecode(tenant),
          new URLSearchParams(raw.toString('utf8')),
          req.headers.authorization,
          // the URL the client posted to: what a client assertion's `aud` must name
          `${this.authorityHost}${url.pathname}`,
        );
        return {
          status: result.status,
          body: result.body,
          contentType: 'application/json; charset=utf-8',
          headers: { 'Cache-Control': 'no-store, no-cache', Pragma: 'no-cache' },
        };
      }
      if (!isGraph) throw new GraphError(404, 'notFound', `No emulator resource at '${url.pathname}'.`);
      this.auth.verify(req.headers.authorization);
      let body: unknown;
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new GraphError(400, 'invalidRequest', 'Unable to read JSON request payload.');
        }
      }
      const reply = this.router.handle({
        method,
        rawPath: url.pathname.slice(GRAPH_PREFIX.length),
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      if (clientRequestId) reply.headers = { ...reply.headers, 'client-request-id': clientRequestId };
      return reply;
    } catch (err) {
      if (err instanceof GraphError) return this.errorReply(err, clientRequestId);
      throw err;
    }
  }
}

export type { LoggedRequest };
