/*
 * The browser's WebAuthn API for component tests, which jsdom lacks: `window.PublicKeyCredential` and
 * `navigator.credentials`. Each ceremony answers as a test says: a made-up credential (the bytes mean
 * nothing; the server at the network edge is MSW, which reads only their shape), or the DOMException a
 * browser gives when the person cancels, the device already holds a passkey, and so on. `remove()`
 * takes it away again, leaving a browser without passkeys.
 */

type Answer = 'credential' | { error: string };

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

function credential(kind: 'create' | 'get') {
  const response =
    kind === 'create'
      ? {
          clientDataJSON: bytes('{"type":"webauthn.create"}'),
          attestationObject: bytes('attestation'),
          getTransports: () => ['internal'],
        }
      : {
          clientDataJSON: bytes('{"type":"webauthn.get"}'),
          authenticatorData: bytes('authenticator-data'),
          signature: bytes('signature'),
          userHandle: bytes('user-1'),
        };
  return {
    id: 'Y3JlZGVudGlhbC0x',
    rawId: bytes('credential-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response,
    getClientExtensionResults: () => ({}),
  };
}

export interface FakeWebAuthn {
  /** What the next `create()` (adding a passkey) answers; a credential unless set. */
  create: Answer;
  /** What the next `get()` (signing in) answers; a credential unless set. */
  get: Answer;
  /**
   * The browser's passkey suggestions in the username field (conditional mediation): absent unless
   * set; then what a `get()` waiting for them answers.
   */
  autofill: Answer | null;
  /** How many ceremonies the page started, of each kind. */
  calls: { create: number; get: number; autofill: number };
  remove: () => void;
}

export function installWebAuthn(): FakeWebAuthn {
  const fake: FakeWebAuthn = {
    create: 'credential',
    get: 'credential',
    autofill: null,
    calls: { create: 0, get: 0, autofill: 0 },
    remove: () => {
      Reflect.deleteProperty(window, 'PublicKeyCredential');
      Reflect.deleteProperty(navigator, 'credentials');
    },
  };
  const answer = async (kind: 'create' | 'get' | 'autofill') => {
    fake.calls[kind] += 1;
    const chosen = fake[kind];
    if (chosen === null) throw new DOMException('The operation is not supported.', 'NotSupportedError');
    if (chosen !== 'credential') throw new DOMException('The operation failed.', chosen.error);
    return credential(kind === 'create' ? 'create' : 'get');
  };
  // a function, as the browser's constructor is, with the one static method the portal asks
  const publicKeyCredential = Object.assign(() => {}, {
    isConditionalMediationAvailable: async () => fake.autofill !== null,
  });
  Object.defineProperty(window, 'PublicKeyCredential', {
    configurable: true,
    writable: true,
    value: publicKeyCredential,
  });
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: () => answer('create'),
      get: (options: { mediation?: string }) =>
        answer(options.mediation === 'conditional' ? 'autofill' : 'get'),
    },
  });
  return fake;
}
