import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../calendar';
import { changePasswordForm } from './auth';
import {
  availabilityDayForm,
  bulkAvailabilityBody,
  bulkAvailabilityForm,
  MAX_BULK_DAYS,
  saveAvailabilityBody,
} from './availability';
import { patternBody, patternForm } from './patterns';

/** The messages react-hook-form shows for these values: the resolver the forms use, run for real. */
async function shown<T extends Record<string, unknown>>(
  schema: Parameters<typeof zodResolver>[0],
  values: T,
) {
  const resolver = zodResolver(schema as never);
  const result = await resolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
  return Object.fromEntries(
    Object.entries(result.errors as Record<string, { message?: string }>).map(([k, e]) => [k, e.message]),
  );
}

describe('change password form', () => {
  const form = (currentPassword: string, newPassword: string, confirmPassword: string) => ({
    currentPassword,
    newPassword,
    confirmPassword,
  });

  it('shows one message per field', async () => {
    expect(await shown(changePasswordForm, form('', '', ''))).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'New password is required',
      confirmPassword: 'Please confirm your new password',
    });
    expect(await shown(changePasswordForm, form('old-pass', '123', '124'))).toEqual({
      newPassword: 'New password must be at least 6 characters',
      confirmPassword: 'Passwords do not match',
    });
    expect(await shown(changePasswordForm, form('old-pass', 'new-pass', 'new-pass'))).toEqual({});
  });

  it('"must differ from current" wins over the other new-password messages', async () => {
    expect(await shown(changePasswordForm, form('abc', 'abc', 'abc'))).toEqual({
      newPassword: 'New password must be different from current password',
    });
  });
});

describe('the dialogs’ form schemas agree with the bodies the server checks', () => {
  const days = [
    { status: 'available', startTime: '', endTime: '', notes: '' },
    { status: 'limited', startTime: '09:00', endTime: '13:00', notes: 'School run' },
    { status: 'limited', startTime: '13:00', endTime: '09:00', notes: '' },
    { status: 'limited', startTime: '9am', endTime: '', notes: '' },
    { status: 'maybe', startTime: '', endTime: '', notes: '' },
    { status: 'unavailable', startTime: '', endTime: '', notes: 'x'.repeat(2001) },
  ];
  const ranges = [
    { startDate: '2026-12-01', endDate: '2026-12-31', daysOfWeek: [1, 2, 3, 4, 5] },
    { startDate: '2026-12-31', endDate: '2026-12-01', daysOfWeek: [1] },
    { startDate: '2026-12-01', endDate: '2026-12-31', daysOfWeek: [] },
    { startDate: '2026-12-01', endDate: '2029-12-31', daysOfWeek: [1] },
    { startDate: '', endDate: '2026-12-31', daysOfWeek: [1] },
  ];

  it.each(days)('day %j', async (day) => {
    const body = saveAvailabilityBody.safeParse({ date: '2026-12-01', ...day });
    expect(availabilityDayForm.safeParse(day).success).toBe(body.success);
    if (!body.success) expect(Object.keys(await shown(availabilityDayForm, day)).length).toBeGreaterThan(0);
  });

  it.each(ranges.flatMap((range) => days.slice(0, 3).map((day) => ({ ...range, ...day }))))(
    'bulk and pattern %j',
    (values) => {
      // a range over the cap passes the body's shape and is refused by the service; the form says so first
      const overCap =
        values.startDate !== '' && daysBetween(values.startDate, values.endDate) > MAX_BULK_DAYS;
      expect(bulkAvailabilityForm.safeParse(values).success).toBe(
        bulkAvailabilityBody.safeParse(values).success && !overCap,
      );
      const pattern = { ...values, everyWeeks: 2 };
      expect(patternForm.safeParse(pattern).success).toBe(patternBody.safeParse(pattern).success);
    },
  );
});

describe('the bulk form', () => {
  it('refuses a range over the cap under the end date, before anything is sent', async () => {
    const values = {
      startDate: '2026-12-01',
      endDate: '2029-12-31',
      daysOfWeek: [1],
      status: 'available',
      startTime: '',
      endTime: '',
      notes: '',
    };
    expect(await shown(bulkAvailabilityForm, values)).toEqual({
      endDate:
        'A bulk update can cover at most 800 days (about two years): choose a later start or an earlier end',
    });
  });
});
