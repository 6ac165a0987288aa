import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientBuildReason } from './client-build.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A repository-shaped folder whose files carry the given modification times (seconds). */
function tree(files: Record<string, number>) {
  const root = mkdtempSync(join(tmpdir(), 'afp-client-build-'));
  roots.push(root);
  for (const [path, seconds] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  }
  return root;
}

describe('whether npm start rebuilds the client', () => {
  it('builds when there is no build', () => {
    expect(clientBuildReason(tree({ 'src/client/main.tsx': 1000 }))).toBe('no client build yet');
  });

  it('keeps a build that is newer than every source', () => {
    const root = tree({
      'src/client/features/a/deep/file.tsx': 1000,
      'src/shared/calendar.ts': 1100,
      'vite.config.ts': 900,
      'dist/client/index.html': 2000,
    });
    expect(clientBuildReason(root)).toBeNull();
  });

  it.each([
    'src/client/features/a/deep/file.tsx',
    'src/client/index.html',
    'src/shared/schemas/x.ts',
    'vite.config.ts',
    'package.json',
    'package-lock.json',
  ])('rebuilds after a pull changes %s', (changed) => {
    const root = tree({ 'src/client/main.tsx': 1000, 'dist/client/index.html': 2000, [changed]: 3000 });
    expect(clientBuildReason(root)).toBe('the client sources changed since the last build');
  });

  it('ignores files the client is not built from', () => {
    const root = tree({ 'src/server/app.ts': 3000, 'README.md': 3000, 'dist/client/index.html': 2000 });
    expect(clientBuildReason(root)).toBeNull();
  });
});
