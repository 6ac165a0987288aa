import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8'));

describe('the Node version the README promises', () => {
  const declared: string = readJson('package.json').engines.node;
  const oldest = minVersion(declared)!.version;

  it('is the version the README names', () => {
    const [, major, minor] = /^(\d+)\.(\d+)\.0$/.exec(oldest) ?? [];
    expect(readFileSync(`${root}README.md`, 'utf8')).toContain(`Node.js ${major}.${minor} or newer`);
  });

  // npm only warns (EBADENGINE) when a package wants a newer Node; this makes the warning a failure.
  it('is accepted by every installed package, as are the versions CI runs (20 and 24)', () => {
    const packages: Record<
      string,
      { engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] }
    > = readJson('package-lock.json').packages;
    // a platform's own build (sharp's for Windows on 32-bit x86, say) is never installed elsewhere:
    // only the packages this machine installs are asked
    const installedHere = (pkg: { os?: string[]; cpu?: string[] }) =>
      (!pkg.os || pkg.os.includes(process.platform)) && (!pkg.cpu || pkg.cpu.includes(process.arch));
    const refusing = Object.entries(packages).flatMap(([path, pkg]) => {
      const wanted = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      if (!path || !wanted || !installedHere(pkg)) return [];
      return ['20.19.0', oldest, '24.0.0']
        .filter((version) => !satisfies(version, wanted))
        .map((version) => `${path.replace(/^.*node_modules\//, '')} wants node ${wanted}, not ${version}`);
    });
    expect(refusing).toEqual([]);
  });
});
