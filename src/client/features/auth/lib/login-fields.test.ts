import { loginBody, staffLoginBody } from '@shared/schemas/auth';
import { describe, expect, it } from 'vitest';
import { checkLogin, checkStaffLogin } from './login-fields';

const usernames = [
  '',
  ' ',
  'ab',
  ' ab ',
  'abc',
  '  abc\t',
  'alice@example.org',
  '\u00a0ab\u00a0',
  'x'.repeat(254),
  'x'.repeat(255),
  ` ${'x'.repeat(254)} `,
];
const passwords = ['', ' ', '12345', '123456', '      ', 'p'.repeat(256), 'p'.repeat(257), 'wrong-password'];

/** The first message zod reports for each field, as react-hook-form's resolver showed them. */
function zodErrors(result: ReturnType<typeof loginBody.safeParse>) {
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const key = String(issue.path[0]);
    errors[key] ??= issue.message;
  }
  return errors;
}

describe('login field checks agree with the shared schemas', () => {
  for (const username of usernames) {
    for (const password of passwords) {
      it(`facilitator ${JSON.stringify(username).slice(0, 20)} / ${JSON.stringify(password).slice(0, 20)}`, () => {
        const expected = loginBody.safeParse({ username, password });
        const actual = checkLogin({ username, password });
        expect(actual.ok).toBe(expected.success);
        if (actual.ok && expected.success) expect(actual.data).toEqual(expected.data);
        if (!actual.ok) expect(actual.errors).toEqual(zodErrors(expected));
      });
      it(`staff ${JSON.stringify(username).slice(0, 20)} / ${JSON.stringify(password).slice(0, 20)}`, () => {
        const expected = staffLoginBody.safeParse({ username, password });
        const actual = checkStaffLogin({ username, password });
        expect(actual.ok).toBe(expected.success);
        if (actual.ok && expected.success) expect(actual.data).toEqual(expected.data);
        if (!actual.ok) expect(actual.errors).toEqual(zodErrors(expected));
      });
    }
  }
});
