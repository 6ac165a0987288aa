import { type APIRequestContext, expect } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { addDays } from './dates';

/**
 * Record, as staff, a DBS check that counts (enhanced with barred list, issued `daysAgo` days ago), so
 * who is free and offers judge the person by availability and bookings alone. The safeguarding spec
 * covers the people left out for their checks.
 */
export async function recordValidDbsCheck(api: APIRequestContext, userId: number, daysAgo = 100) {
  const records = await api.put(`/api/staff/users/${userId}/safeguarding`, {
    data: {
      dbs: {
        certificateNumber: '001234567890',
        issueDate: addDays(hostToday(), -daysAgo),
        enhancedWithBarredList: true,
        onUpdateService: false,
        statusCheckedOn: null,
        checkedBy: 'Office',
      },
      checks: [],
      version: 0,
    },
  });
  expect(records.status(), await records.text()).toBe(200);
}
