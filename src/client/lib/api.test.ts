import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiJson, errorFields, errorMessage } from './api';

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
      case '/refused':
        res.writeHead(409, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            message: 'Some are not free',
            fieldErrors: { confirmNotFree: ['Ann is booked'], 'days.0': ['A day is 0 to 6', 'second'] },
          }),
        );
        return;
      case '/proxy':
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
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

describe('apiJson', () => {
  it('sends JSON and its content type only when there is a body', async () => {
    await apiJson('POST', `${base}/ok`, { a: 1 });
    expect(last).toEqual({ method: 'POST', contentType: 'application/json', body: '{"a":1}' });
    await apiJson('POST', `${base}/ok`);
    expect(last).toEqual({ method: 'POST', contentType: undefined, body: '' });
  });

  it('parses JSON and tolerates empty responses', async () => {
    expect(await apiJson('GET', `${base}/ok`)).toEqual({ id: 1 });
    expect(await apiJson('DELETE', `${base}/empty`)).toBeUndefined();
  });
});

/** The error a request to `path` fails with. */
const refusalOf = (path: string): Promise<ApiError> =>
  apiJson('PUT', `${base}${path}`, {}).then(
    () => Promise.reject(new Error('expected a refusal')),
    (e: unknown) => e as ApiError,
  );

describe('ApiError: the server error shape read once', () => {
  it("keeps the status, the server's message and its fields", async () => {
    const error = await refusalOf('/refused');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.serverMessage).toBe('Some are not free');
    expect(error.fields.confirmNotFree).toEqual(['Ann is booked']);
    expect(error.fieldMessages()).toEqual({ confirmNotFree: 'Ann is booked', days: 'A day is 0 to 6' });
  });

  it('has no message for people when the answer is not the server shape', async () => {
    for (const path of ['/proxy', '/missing']) {
      const error = await refusalOf(path);
      expect(error.serverMessage).toBeNull();
      expect(error.fields).toEqual({});
    }
    expect((await refusalOf('/missing')).status).toBe(500);
  });

  it('has the message every refusal carries: the status, a colon, a space, then the body or the status text', async () => {
    expect((await refusalOf('/bad')).message).toBe('400: {"message":"Current password is incorrect"}');
    expect((await refusalOf('/proxy')).message).toBe('502: <html>bad gateway</html>');
    expect((await refusalOf('/missing')).message).toBe('500: Internal Server Error');
  });
});

describe('errorMessage and errorFields', () => {
  it("give the server's message, or the fallback when it gave none", async () => {
    expect(errorMessage(await refusalOf('/bad'), 'Failed')).toBe('Current password is incorrect');
    expect(errorMessage(await refusalOf('/proxy'), 'Failed')).toBe('Failed');
    expect(errorMessage(new TypeError('fetch failed'), 'Failed')).toBe('Failed');
    expect(errorMessage('nope', 'Failed')).toBe('Failed');
  });

  it('give field messages by field, else one message for the form', async () => {
    expect(errorFields(await refusalOf('/refused'), 'fallback')).toEqual({
      confirmNotFree: 'Ann is booked',
      days: 'A day is 0 to 6',
    });
    expect(errorFields(await refusalOf('/bad'), 'fallback')).toEqual({ _: 'Current password is incorrect' });
    expect(errorFields(await refusalOf('/missing'), 'fallback')).toEqual({ _: 'fallback' });
    expect(errorFields(new TypeError('Failed to fetch'), 'fallback')).toEqual({ _: 'fallback' });
  });
});
