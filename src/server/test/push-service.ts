/**
 * A push service stand-in: a real HTTP server, started by the tests, that takes pushes as a browser's
 * push service does. It checks each push's VAPID signature (RFC 8292: an ES256 JWT for this origin,
 * signed by the key in `k`) and decrypts the message (RFC 8291, aes128gcm of RFC 8188) with the private
 * key and auth secret of the device it was sent to, which the test made here, as a browser would.
 * Each device can be told to answer with another status (404, 410, 401 …) to play a gone subscription
 * or a refused key.
 */
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  createVerify,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestDevice {
  id: string;
  /** the subscription as PushSubscription.toJSON() gives it */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** what this device's endpoint answers (201 by default) */
  status: number;
}

export interface ReceivedPush {
  deviceId: string;
  /** the decrypted message */
  payload: string;
  ttl: number;
  urgency: string | null;
  /** the VAPID key that signed it (base64url) */
  vapidKey: string;
  at: number;
}

export interface TestPushService {
  origin: string;
  /** pushes decrypted and accepted (a device answering an error status records none) */
  received: ReceivedPush[];
  /** requests refused because the signature or the encryption was wrong, with why */
  rejected: string[];
  /** a new device (a browser profile) subscribed at this service */
  device(id?: string): TestDevice;
  /** resolves when `count` pushes in all have been received */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Verify `vapid t=<jwt>, k=<key>` for `origin`; returns the key, or throws saying what is wrong. */
function verifyVapid(header: string | undefined, origin: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error('no VAPID authorization');
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, claims, signature] = jwt.split('.');
  if (!head || !claims || !signature) throw new Error('malformed JWT');
  const header64 = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header64.alg !== 'ES256') throw new Error('not ES256');
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) },
    format: 'jwk',
  });
  const verifier = createVerify('SHA256');
  verifier.update(`${head}.${claims}`);
  if (!verifier.verify({ key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url')))
    throw new Error('bad JWT signature');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (body.aud !== origin) throw new Error(`aud ${body.aud} is not ${origin}`);
  if (!body.exp || body.exp * 1000 < Date.now() || body.exp * 1000 > Date.now() + 24 * 3600_000 + 60_000)
    throw new Error('exp missing or out of range');
  if (!body.sub || !/^(mailto:|https:)/.test(body.sub)) throw new Error('sub is not mailto: or https:');
  return k;
}

/** RFC 8291 / RFC 8188: decrypt one aes128gcm record with the device's private key and auth secret. */
export function decryptPush(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error('keyid is not the sender key');
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdhSecret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // the last record ends with the delimiter 2, then zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export async function startTestPushService(): Promise<TestPushService> {
  const devices = new Map<
    string,
    { device: TestDevice; ecdh: ReturnType<typeof createECDH>; auth: Buffer }
  >();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const events = new EventEmitter();
  let origin = '';
  let seq = 0;

  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    const entry = id ? devices.get(id) : undefined;
    if (request.method !== 'POST' || !entry) {
      response.writeHead(404).end();
      return;
    }
    try {
      const vapidKey = verifyVapid(request.headers.authorization, origin);
      if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      if (body.length > 4096) throw new Error('message over 4096 bytes');
      const payload = decryptPush(body, entry.ecdh, entry.auth);
      if (entry.device.status >= 300) {
        response.writeHead(entry.device.status).end();
        return;
      }
      received.push({
        deviceId: entry.device.id,
        payload,
        ttl: Number(request.headers.ttl),
        urgency: (request.headers.urgency as string | undefined) ?? null,
        vapidKey,
        at: performance.now(),
      });
      response.writeHead(entry.device.status).end();
      events.emit('push');
    } catch (error) {
      rejected.push((error as Error).message);
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    rejected,
    device(id = `device-${++seq}`) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const device: TestDevice = {
        id,
        status: 201,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
        },
      };
      devices.set(id, { device, ecdh, auth });
      return device;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('push', check);
          reject(new Error(`waited for ${count} pushes, ${received.length} came`));
        }, timeoutMs);
        function check() {
          if (received.length < count) return;
          clearTimeout(timer);
          events.off('push', check);
          resolve();
        }
        events.on('push', check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
