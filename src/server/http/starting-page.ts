import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NotReadyAnswer } from '../../shared/schemas/probes';

/**
 * What a page request gets while the portal is not ready to serve its pages: while `npm start` is
 * still building the client beside a server that is already listening
 * (docs/decisions/0027-start-serving-while-the-client-builds.md), and before that while the database
 * opens (answerWhileStarting below): a 503 that says so and reloads itself.
 *
 * No script (the content security policy forbids inline scripts) and no `<meta http-equiv="refresh">`
 * (axe reports a timed refresh as a failure): the `Refresh` header reloads it.
 */
export const STARTING_RELOAD_SECONDS = 2;

export const STARTING_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>The portal is starting</title>
    <style>
      :root { color-scheme: light dark; }
      body { font-family: system-ui, sans-serif; margin: 0; min-height: 100dvh; display: grid; place-items: center; }
      main { max-width: 32rem; padding: 1.5rem; line-height: 1.5; }
      h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
    </style>
  </head>
  <body>
    <main>
      <h1>The portal is starting</h1>
      <p role="status">It is getting ready. This page reloads by itself and opens the portal when it is ready, usually within a minute.</p>
    </main>
  </body>
</html>
`;

/** The API's answer while the database opens: the error shape every route uses, and when to retry. */
const STARTING_API_ANSWER = JSON.stringify({ message: 'The portal is starting; try again in a moment' });

/** The page while an operator holds the portal (MAINTENANCE=true): it reloads until the portal is back. */
export const MAINTENANCE_PAGE = STARTING_PAGE.replaceAll(
  'The portal is starting',
  'The portal is down for maintenance',
).replace(
  'It is getting ready. This page reloads by itself and opens the portal when it is ready, usually within a minute.',
  'It is being looked after and will be back shortly. This page reloads by itself and opens the portal when it is back.',
);
const MAINTENANCE_API_ANSWER = JSON.stringify({
  message: 'The portal is down for maintenance; try again later',
});
const MAINTENANCE_RELOAD_SECONDS = 30;

/**
 * What answers before the app exists: while it starts (answerWhileStarting) or, for good, while an
 * operator holds the portal (answerInMaintenance). The live probe says the process answers; the ready
 * probe says why it is not ready.
 */
function answerBeforeTheApp(
  reason: 'starting' | 'maintenance',
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const maintenance = reason === 'maintenance';
  const retry = String(maintenance ? MAINTENANCE_RELOAD_SECONDS : STARTING_RELOAD_SECONDS);
  if (path === '/api/health/live' || path === '/api/health/ready') {
    const live = path === '/api/health/live';
    const answer: { status: 'live' } | NotReadyAnswer = live
      ? { status: 'live' }
      : {
          status: 'not-ready',
          reason,
          message: maintenance ? 'The portal is held for maintenance' : 'The portal is starting',
        };
    const body = JSON.stringify(answer);
    response.statusCode = live ? 200 : 503;
    response.setHeader('content-type', 'application/json; charset=utf-8');
    response.setHeader('content-length', Buffer.byteLength(body));
    response.setHeader('cache-control', 'no-store');
    if (!live) response.setHeader('retry-after', retry);
    response.setHeader('connection', 'close');
    response.end(request.method === 'HEAD' ? undefined : body);
    return;
  }
  const api = path === '/api' || path.startsWith('/api/') || path === '/metrics';
  const page = !api && (request.method === 'GET' || request.method === 'HEAD');
  const body = page
    ? maintenance
      ? MAINTENANCE_PAGE
      : STARTING_PAGE
    : maintenance
      ? MAINTENANCE_API_ANSWER
      : STARTING_API_ANSWER;
  response.statusCode = 503;
  response.setHeader('content-type', page ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.setHeader('cache-control', 'no-store');
  response.setHeader('retry-after', retry);
  if (page) response.setHeader('refresh', retry);
  response.setHeader(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('x-frame-options', 'DENY');
  response.setHeader('referrer-policy', 'no-referrer');
  // an unread request body must not hold the connection: the answer ends it
  if (!page) response.setHeader('connection', 'close');
  response.end(request.method === 'HEAD' ? undefined : body);
}

/**
 * The request handler of the portal's server before the app exists (serve.ts, ADR 42): every request
 * answers 503 at once, a page the starting page, the API a JSON error, both with Retry-After. Nothing
 * here reads the request: no session, no body, so nothing to check and nothing to leak. The headers
 * that matter for a page without the app's helmet are set here: a policy allowing only the inline
 * style, no framing, no sniffing.
 */
export function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  answerBeforeTheApp('starting', request, response);
}

/** The handler of a portal held for maintenance: the database is never opened. */
export function answerInMaintenance(request: IncomingMessage, response: ServerResponse): void {
  answerBeforeTheApp('maintenance', request, response);
}
