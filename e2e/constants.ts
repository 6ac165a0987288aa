/** Shared by playwright.config.ts, the global setup and the fixtures. */
// A run picks its port once (E2E_PORT, else a random high port) and the workers inherit it through the
// environment, so two runs on one machine do not collide.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 10_000));
export const E2E_PORT = Number(process.env.E2E_PORT);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
// The SharePoint emulator the e2e server starts next to the app (e2e/server-with-fixtures.ts), picked
// the same way; the specs reach its /__emulator/ control plane here (see e2e/emulator.ts).
process.env.E2E_EMULATOR_PORT ??= String(30_000 + Math.floor(Math.random() * 10_000));
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT);
export const EMULATOR_URL = `http://127.0.0.1:${E2E_EMULATOR_PORT}`;

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
