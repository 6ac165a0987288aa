import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

const ORIGIN = 'https://portal.example.org';
const back = (value: string | null) => safeReturnPath(value, ORIGIN);

describe('the path to return to after signing in', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(back('/staff/users?q=a#top')).toBe('/staff/users?q=a#top');
    expect(back('/staff/./users')).toBe('/staff/users');
  });

  it('refuses anything that leads to another site, also once dot segments are resolved', () => {
    for (const value of [
      'https://evil.example/',
      '//evil.example',
      '/\\\\evil.example',
      '/.//evil.example',
      '/./../..//evil.example/x',
      '/a/..//evil.example',
      '/%2e//evil.example',
      '/./%2F/evil.example',
      'evil.example',
      '',
      null,
    ]) {
      const result = back(value);
      if (result !== null) expect(result.startsWith('//'), String(value)).toBe(false);
      expect(result === null || new URL(result, ORIGIN).origin === ORIGIN, String(value)).toBe(true);
    }
    expect(back('/.//evil.example')).toBeNull();
    expect(back('/a/..//evil.example')).toBeNull();
  });
});
