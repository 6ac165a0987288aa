/**
 * A software authenticator for tests: it makes real WebAuthn answers with node's crypto (an ES256 key
 * per passkey, attestation "none" or "packed" self-attestation), as a browser and its authenticator
 * would, so the server's ceremonies are tested end to end with nothing of the portal's own faked.
 * It signs whatever it is told to: a test can aim it at another site, replay an answer or turn its
 * counter back.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

// --- a minimal CBOR encoder: unsigned and negative integers, byte and text strings, maps ------------
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface TestPasskey {
  credentialId: Buffer;
  /** the COSE public key, as the server keeps it */
  publicKeyCose: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOptions {
  /** the page's origin as the browser would report it */
  origin: string;
  /** the relying party the authenticator scopes the passkey to (default: the options' rp.id / rpId) */
  rpId?: string;
  /** "packed" self-attestation instead of "none" */
  attestation?: 'none' | 'packed';
  /** whether the person was verified (PIN, fingerprint) */
  userVerified?: boolean;
}

function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter, 0);
  return b;
}

/** The authenticator: it keeps the passkeys it made, as a phone keeps its passkeys. */
export class TestAuthenticator {
  readonly passkeys: TestPasskey[] = [];
  /** counters start here and go up by one per use; 0 keeps them at 0, as many platform passkeys do */
  constructor(private readonly counting = true) {}

  /** Answer `navigator.credentials.create()` with the server's options (JSON form). */
  create(options: Record<string, unknown>, ceremony: CeremonyOptions) {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const rpId = ceremony.rpId ?? rp.id;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(16);
    const passkey: TestPasskey = {
      credentialId,
      publicKeyCose: coseKey(publicKey),
      privateKey,
      rpId,
      userHandle: user.id,
      counter: 0,
    };
    const flags = FLAG_UP | FLAG_AT | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length, 0);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      counterBytes(0),
      Buffer.alloc(16), // aaguid: none
      credentialIdLength,
      credentialId,
      passkey.publicKeyCose,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: ceremony.origin,
        crossOrigin: false,
      }),
    );
    const attStmt =
      ceremony.attestation === 'packed'
        ? new Map<string, Cbor>([
            ['alg', -7],
            ['sig', sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey)],
          ])
        : new Map<string, Cbor>();
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', ceremony.attestation ?? 'none'],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );
    this.passkeys.push(passkey);
    return {
      passkey,
      response: {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      },
    };
  }

  /**
   * Answer `navigator.credentials.get()` with a passkey it holds (default: the last made), signing the
   * server's challenge for `origin`. `counter` overrides the counter it reports (to replay an old one).
   */
  get(
    options: Record<string, unknown>,
    ceremony: CeremonyOptions & { passkey?: TestPasskey; counter?: number },
  ) {
    const passkey = ceremony.passkey ?? this.passkeys.at(-1);
    if (!passkey) throw new Error('the test authenticator holds no passkey');
    if (ceremony.counter === undefined && this.counting) passkey.counter += 1;
    const counter = ceremony.counter ?? passkey.counter;
    const rpId = ceremony.rpId ?? passkey.rpId;
    const flags = FLAG_UP | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: ceremony.origin }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      passkey.privateKey,
    );
    return {
      id: b64url(passkey.credentialId),
      rawId: b64url(passkey.credentialId),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
