/** Shared by playwright.config.ts, the global setup and the fixtures. */
// A run picks its port once (E2E_PORT, else a random high port) and the workers inherit it through the
// environment, so two runs on one machine do not collide.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 10_000));
export const E2E_PORT = Number(process.env.E2E_PORT);
// The portal is opened as localhost, not 127.0.0.1: browsers treat localhost as a secure context and
// allow it as a WebAuthn relying party id, and refuse passkeys on an IP address. The server still
// listens on 127.0.0.1 only (playwright.config.ts); localhost reaches it there. PUBLIC_URL is this
// address, so the server's Origin checks and the links in its mail agree with what the browser sends.
export const BASE_URL = `http://localhost:${E2E_PORT}`;
// The SharePoint emulator the e2e server starts next to the app (e2e/server-with-fixtures.ts), picked
// the same way; the specs reach its /__emulator/ control plane here (see e2e/emulator.ts).
process.env.E2E_EMULATOR_PORT ??= String(30_000 + Math.floor(Math.random() * 10_000));
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT);
export const EMULATOR_URL = `http://127.0.0.1:${E2E_EMULATOR_PORT}`;
// the e2e server runs a test SMTP server here and writes every message it receives into
// E2E_MAIL_DIR, one JSON file per message, so any worker's spec can read what arrived (e2e/mailbox.ts).
process.env.E2E_SMTP_PORT ??= String(40_000 + Math.floor(Math.random() * 10_000));
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT);
process.env.E2E_MAIL_DIR ??= `${process.env.TMPDIR ?? '/tmp'}/afp-e2e-mail-${E2E_PORT}`;
export const E2E_MAIL_DIR = process.env.E2E_MAIL_DIR;
/** The sign-in the e2e SMTP server requires. */
export const E2E_SMTP_LOGIN = { user: 'e2e-mailer', pass: 'e2e-Mail-s3cret' } as const;

export const STAFF = {
  username: 'e2e-staff@example.org',
  password: 'Staff-e2e-Passw0rd',
} as const;

export interface TestUser {
  username: string;
  password: string;
  displayName: string | null;
}

/** Created once per run by global-setup.ts. Nobody changes their passwords. */
export const FACILITATORS = {
  alice: { username: 'alice.walker@example.org', password: 'alice-pass-2026', displayName: 'Alice Walker' },
  ben: { username: 'ben.okafor@example.org', password: 'ben-pass-2026', displayName: null },
} satisfies Record<string, TestUser>;
