import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeReturnPath, staffLoginHref } from './return-path';

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

describe('the staff login address', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('brings the person back to the page, but never to the dashboard or the login itself', () => {
    vi.stubGlobal('window', { location: { origin: ORIGIN } });
    expect(staffLoginHref('/staff/users?q=a')).toBe('/staff-login?next=%2Fstaff%2Fusers%3Fq%3Da');
    expect(staffLoginHref('/staff')).toBe('/staff-login');
    expect(staffLoginHref('/staff-login')).toBe('/staff-login');
    expect(staffLoginHref('/staff-login?next=%2Fstaff')).toBe('/staff-login');
    expect(staffLoginHref('//evil.example')).toBe('/staff-login');
  });
});
