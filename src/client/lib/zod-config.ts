// Zod compiles object parsers with `new Function` when it may; to find out, it tries one, which our
// CSP (script-src 'self', no 'unsafe-eval') refuses and Chromium logs as a CSP issue on every page
// (Lighthouse best practices). Parsing without the compiled fast path costs nothing we can measure
// on forms this size. Imported first in main.tsx, before any schema parses.
//
// Zod keeps its settings on globalThis.__zod_globalConfig, adopts an object already there and reads
// it on every parse, so the setting is written without importing zod: the login pages parse no
// schema and ship no zod code. zod-config.test.ts checks that zod reads it.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
