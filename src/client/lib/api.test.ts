import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiJson, apiRequest, getErrorMessage, serverFieldErrors, serverMessage } from './api';
import { getQueryFn } from './query-client';

interface Seen {
  method: string;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let base = '';
let last: Seen | null = null;

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    last = { method: req.method ?? '', contentType: req.headers['content-type'], body: await readBody(req) };
    switch (req.url) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}');
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/unauthorized':
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Not signed in"}');
        return;
      case '/bad':
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"message":"Current password is incorrect"}');
        return;
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('apiRequest', () => {
  it('sends JSON and its content type only when there is a body', async () => {
    await apiRequest('POST', `${base}/ok`, { a: 1 });
    expect(last).toEqual({ method: 'POST', contentType: 'application/json', body: '{"a":1}' });
    await apiRequest('POST', `${base}/ok`);
    expect(last).toEqual({ method: 'POST', contentType: undefined, body: '' });
  });

  it('turns a non-OK response into "status: body", or the status text when the body is empty', async () => {
    await expect(apiRequest('PUT', `${base}/bad`, {})).rejects.toThrow(
      '400: {"message":"Current password is incorrect"}',
    );
    const error = await apiRequest('GET', `${base}/missing`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('500: Internal Server Error');
  });

  it('parses JSON and tolerates empty responses', async () => {
    expect(await apiJson('GET', `${base}/ok`)).toEqual({ id: 1 });
    expect(await apiJson('DELETE', `${base}/empty`)).toBeUndefined();
  });
});

describe('getErrorMessage', () => {
  it("pulls the server's message out of an API error", () => {
    expect(getErrorMessage(new Error('400: {"message":"Current password is incorrect"}'), 'x')).toBe(
      'Current password is incorrect',
    );
  });

  it('falls back when there is no usable message', () => {
    expect(getErrorMessage(new Error('500: Internal Server Error'), 'Failed')).toBe('Internal Server Error');
    expect(getErrorMessage(new Error('500: {"error":true}'), 'Failed')).toBe('Failed');
    expect(getErrorMessage(new Error('502: <html>bad gateway</html>'), 'Failed')).toBe('Failed');
    expect(getErrorMessage(new TypeError('fetch failed'), 'Failed')).toBe('Failed');
    expect(getErrorMessage('nope', 'Failed')).toBe('Failed');
  });
});

type QueryContext = Parameters<ReturnType<typeof getQueryFn>>[0];

const context = (...queryKey: string[]) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined }) as unknown as QueryContext;

describe('getQueryFn', () => {
  it('returns null on 401 when asked to', async () => {
    expect(await getQueryFn({ on401: 'returnNull' })(context(`${base}/unauthorized`))).toBeNull();
  });

  it('throws on 401 by default', async () => {
    await expect(getQueryFn({ on401: 'throw' })(context(`${base}/unauthorized`))).rejects.toThrow(
      '401: {"message":"Not signed in"}',
    );
  });

  it('GETs the query key joined as the URL', async () => {
    expect(await getQueryFn({ on401: 'throw' })(context(base, 'ok'))).toEqual({ id: 1 });
    expect(last?.method).toBe('GET');
  });
});

describe('server refusals read in one place', () => {
  const refusal = (status: number, body: string) => new ApiError(status, 'Bad Request', body);

  it('gives a 400 field by field, first message of each top-level field', () => {
    const error = refusal(
      400,
      JSON.stringify({
        message: 'Check the fields',
        fieldErrors: {
          endDate: ['End date must be on or after start date', 'second'],
          'daysOfWeek.0': ['Days of week are 0 to 6'],
        },
      }),
    );
    expect(serverFieldErrors(error, 'fallback')).toEqual({
      endDate: 'End date must be on or after start date',
      daysOfWeek: 'Days of week are 0 to 6',
    });
  });

  it('reads field messages whatever the refusal status', () => {
    const taken = refusal(
      409,
      JSON.stringify({ message: 'Taken', fieldErrors: { username: ['Username already exists'] } }),
    );
    expect(serverFieldErrors(taken, 'fallback')).toEqual({ username: 'Username already exists' });
  });

  it('gives anything else as one message for the form', () => {
    expect(serverFieldErrors(refusal(400, '{"message":"Too many days"}'), 'fallback')).toEqual({
      _: 'Too many days',
    });
    expect(serverFieldErrors(refusal(409, '{"message":"Booked"}'), 'fallback')).toEqual({ _: 'Booked' });
    expect(serverFieldErrors(refusal(500, ''), 'fallback')).toEqual({ _: 'fallback' });
    expect(serverFieldErrors(new TypeError('Failed to fetch'), 'fallback')).toEqual({ _: 'fallback' });
  });

  it('uses the fallback, not the status text, when the answer had no body', () => {
    expect(serverMessage(refusal(502, ''), 'Please try again.')).toBe('Please try again.');
    expect(serverMessage(refusal(400, '{"message":"No"}'), 'Please try again.')).toBe('No');
  });
});
