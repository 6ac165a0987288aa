#!/usr/bin/env node
// The layout's import rules (DESIGN.md section 3), checked on every `npm run lint`:
//   src/shared imports neither side and nothing from Node;
//   src/client never imports server code or Node built-ins;
//   client features never import each other (routes in src/client/app compose them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const serverOnlyPackages =
  /^(fastify|@fastify\/|drizzle-orm|@electric-sql\/pglite|pg$|@node-rs\/|croner|nodemailer|exceljs)/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts)$/.test(name)) yield path;
  }
}

const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function resolveSpecifier(file, specifier) {
  if (specifier.startsWith('@shared/')) return join(src, 'shared', specifier.slice(8));
  if (specifier.startsWith('@/')) return join(src, 'client', specifier.slice(2));
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  return null;
}

const area = (path) => relative(src, path).split(sep)[0];
const feature = (path) => {
  const parts = relative(join(src, 'client', 'features'), path).split(sep);
  return parts[0] === '..' ? null : parts[0];
};

const problems = [];
for (const file of files(src)) {
  const fromArea = area(file);
  if (fromArea !== 'shared' && fromArea !== 'client') continue;
  // Tests run in Node under vitest; the rules are about what ships.
  if (/\.test\.tsx?$/.test(file)) continue;
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    const where = `${relative(root, file)} imports '${specifier}'`;
    const target = resolveSpecifier(file, specifier);
    if (target) {
      const toArea = area(target);
      if (fromArea === 'shared' && toArea !== 'shared')
        problems.push(`${where}: shared code must not import ${toArea}`);
      if (fromArea === 'client' && toArea === 'server')
        problems.push(`${where}: the client must not import server code`);
      if (fromArea === 'client' && toArea === 'sharepoint-emulator')
        problems.push(`${where}: the client must not import the emulator`);
      const fromFeature = feature(file);
      const toFeature = feature(target);
      if (fromFeature && toFeature && fromFeature !== toFeature) {
        problems.push(`${where}: features must not import each other (compose them in src/client/app)`);
      }
    } else if (nodeBuiltins.has(specifier)) {
      problems.push(`${where}: ${fromArea} code runs in the browser and must not use Node built-ins`);
    } else if (serverOnlyPackages.test(specifier)) {
      problems.push(`${where}: a server-only package`);
    } else if (fromArea === 'shared' && !/^(zod|date-fns|@date-fns\/)/.test(specifier)) {
      problems.push(`${where}: shared code may only use zod and date-fns`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Import boundary check failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('Import boundaries: ok');
