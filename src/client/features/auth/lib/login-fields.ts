import type { LoginBody, StaffLoginBody } from '@shared/schemas/auth';

/**
 * The two login forms check their fields here rather than with the shared zod schemas: zod's object
 * parsers would be most of the login page's JavaScript (under 100 KB). The server still
 * parses every body with `loginBody` / `staffLoginBody`; login-fields.test.ts keeps these checks and
 * their messages in step with those schemas.
 */

type FieldErrors<T> = Partial<Record<keyof T, string>>;

export type LoginCheck<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors<T> };

function lengthError(value: string, min: number, max: number, tooShort: string, tooLong: string) {
  if (value.length < min) return tooShort;
  if (value.length > max) return tooLong;
  return undefined;
}

/** Facilitator login: the rules and messages of `loginBody`. */
export function checkLogin(values: LoginBody): LoginCheck<LoginBody> {
  // zod's .trim() is String.prototype.trim, so both strip the same characters
  const username = values.username.trim();
  const errors: FieldErrors<LoginBody> = {};
  const usernameError = lengthError(
    username,
    3,
    254,
    'Username must be at least 3 characters',
    'Username must be at most 254 characters',
  );
  const passwordError = lengthError(
    values.password,
    6,
    256,
    'Password must be at least 6 characters',
    'Password must be at most 256 characters',
  );
  if (usernameError) errors.username = usernameError;
  if (passwordError) errors.password = passwordError;
  if (usernameError || passwordError) return { ok: false, errors };
  return { ok: true, data: { username, password: values.password } };
}

const bothRequired = 'Please enter both username and password';

/** Staff login: the rules and messages of `staffLoginBody`; the form shows the first message. */
export function checkStaffLogin(values: StaffLoginBody): LoginCheck<StaffLoginBody> {
  const username = values.username.trim();
  const errors: FieldErrors<StaffLoginBody> = {};
  const usernameError = lengthError(
    username,
    1,
    254,
    bothRequired,
    'Username must be at most 254 characters',
  );
  const passwordError = lengthError(
    values.password,
    1,
    256,
    bothRequired,
    'Password must be at most 256 characters',
  );
  if (usernameError) errors.username = usernameError;
  if (passwordError) errors.password = passwordError;
  if (usernameError || passwordError) return { ok: false, errors };
  return { ok: true, data: { username, password: values.password } };
}
