import type { SendRemindersResponse } from '@shared/schemas/reminders';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { useSendReminders } from './reminders-api';

const staff = { ...anAccount({ id: 1, username: 'staff@example.org' }), role: 'staff' as const };

function SendButton() {
  const send = useSendReminders();
  return (
    <button type="button" onClick={() => send.mutate({ month: '2027-01' })}>
      Send reminders
    </button>
  );
}

test('the completeness report is read again once reminders are sent, though the page that sent them has closed', async () => {
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  let asked = () => {};
  const posted = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const sent: SendRemindersResponse = {
    month: '2027-01',
    label: 'January 2027',
    sent: 0,
    skipped: 0,
    failed: 0,
    results: [],
  };
  server.use(
    http.post('/api/staff/reminders/send', async () => {
      asked();
      await answered;
      return HttpResponse.json(sent);
    }),
  );
  const { user, queryClient, unmount } = renderWithApp(<SendButton />, { user: staff });
  // a month of the report read earlier, kept in the cache
  const report = [...queryKeys.completeness.all, '2027-01', ''];
  queryClient.setQueryData(report, { rows: [] });

  await user.click(screen.getByRole('button', { name: 'Send reminders' }));
  await posted;
  unmount();
  answer();
  await waitFor(() => expect(queryClient.getQueryState(report)?.isInvalidated).toBe(true));
});
