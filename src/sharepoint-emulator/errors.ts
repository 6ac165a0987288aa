import { randomUUID } from 'node:crypto';

/** Thrown anywhere in request handling; the server turns it into a Graph error body. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly innerCode?: string,
  ) {
    super(message);
  }
}

export interface GraphErrorBody {
  error: { code: string; message: string; innerError: Record<string, string> };
}

export function graphErrorBody(
  code: string,
  message: string,
  nowMs: number,
  clientRequestId?: string,
  innerCode?: string,
): GraphErrorBody {
  const innerError: Record<string, string> = {
    date: new Date(nowMs).toISOString().slice(0, 19),
    'request-id': randomUUID(),
    'client-request-id': clientRequestId ?? randomUUID(),
  };
  if (innerCode) innerError.code = innerCode;
  return { error: { code, message, innerError } };
}

export const notFound = (what: string) =>
  new GraphError(404, 'itemNotFound', `The requested ${what} could not be found.`);

export const invalidRequest = (message: string) => new GraphError(400, 'invalidRequest', message);
