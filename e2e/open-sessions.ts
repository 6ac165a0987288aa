/**
 * Open sessions and offers made for a test through the staff API: a session with no facilitator is a
 * SharePoint item read in by a refresh, as in the product.
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { addDays, dayOfWeek } from './dates';
import { addSharePointItem, withSharePointLock } from './emulator';

/** A weekday at least three days ahead, so a reply-by time tomorrow is before the session. */
export function sessionDay(): string {
  let day = addDays(hostToday(), 3);
  while ([0, 6].includes(dayOfWeek(day))) day = addDays(day, 1);
  return day;
}

/** An open session at `school` on sessionDay(), brought in from SharePoint; answers its id and date. */
export async function openSession(
  api: APIRequestContext,
  school: string,
): Promise<{ id: number; date: string }> {
  const date = sessionDay();
  await withSharePointLock(async () => {
    await addSharePointItem('Bookings', {
      Title: school,
      SessionDate: date,
      StartTime: '09:30',
      EndTime: '12:00',
      SchoolName: school,
      Programme: 'Dance',
      Status: 'Confirmed',
    });
    const refreshed = await api.post('/api/staff/bookings/refresh');
    expect(refreshed.ok(), await refreshed.text()).toBeTruthy();
  });
  const list = await (await api.get(`/api/staff/sessions?from=${date}&to=${date}`)).json();
  const session = list.sessions.find((s: { schoolName: string }) => s.schoolName === school);
  expect(session, `open session ${school}`).toBeTruthy();
  return { id: session.id, date };
}

/** Offers the session to one facilitator, replies wanted by this time tomorrow. */
export async function offerByApi(api: APIRequestContext, sessionId: number, userId: number) {
  const made = await api.post(`/api/staff/sessions/${sessionId}/offers`, {
    data: {
      userIds: [userId],
      replyBy: new Date(Date.now() + 86_400_000).toISOString(),
      message: 'Can you bring the drums?',
      confirmNotFree: true,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
}
