import type { SafeguardingPolicyBody } from '@shared/schemas/safeguarding';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SafeguardingPolicyCard } from './safeguarding-policy-card';

const URL = '/api/staff/safeguarding/policy';
const policy: SafeguardingPolicyBody = {
  dbsMonths: 36,
  updateServiceMonths: 12,
  warningDays: 30,
  checkTypes: [],
};

/** The policy, its preview (nobody's state changes) and its save answering as `answer` says; returns what was sent. */
function policyApi(answer: (body: SafeguardingPolicyBody) => Response) {
  const sent: { previewed: unknown[]; saved: unknown[] } = { previewed: [], saved: [] };
  server.use(
    http.get(URL, () => HttpResponse.json(policy)),
    http.post(`${URL}/preview`, async ({ request }) => {
      sent.previewed.push(await request.json());
      return HttpResponse.json({ changes: [], facilitators: 3 });
    }),
    http.put(URL, async ({ request }) => {
      const body = (await request.json()) as SafeguardingPolicyBody;
      sent.saved.push(body);
      return answer(body);
    }),
  );
  return sent;
}

describe('SafeguardingPolicyCard', () => {
  test("shows each rule's message at its field and sends nothing until they hold", async () => {
    const sent = policyApi((body) => HttpResponse.json(body));
    const { user } = renderWithApp(<SafeguardingPolicyCard />);
    const months = await screen.findByLabelText('Months from the issue date');
    expect(months).toHaveValue('36');

    await user.clear(months);
    await user.type(months, 'six');
    await user.clear(screen.getByLabelText('Months from the last status check'));
    await user.type(screen.getByLabelText('Months from the last status check'), '121');
    await user.clear(screen.getByLabelText('Warn this many days before'));
    await user.type(screen.getByLabelText('Other checks (one per line)'), 'First aid\nDBS');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));

    expect(await screen.findByText('Months without the Update Service must be a whole number')).toBeVisible();
    expect(screen.getByText('Months on the Update Service must be from 1 to 120')).toBeVisible();
    expect(screen.getByText('Warning days must be a whole number')).toBeVisible();
    expect(screen.getByText('The DBS check is always kept; name other checks')).toBeVisible();
    expect(months).toHaveAttribute('aria-invalid', 'true');
    expect(sent.previewed).toEqual([]);

    await user.clear(months);
    await user.type(months, ' 24 ');
    await user.clear(screen.getByLabelText('Months from the last status check'));
    await user.type(screen.getByLabelText('Months from the last status check'), '12');
    await user.type(screen.getByLabelText('Warn this many days before'), '14');
    await user.clear(screen.getByLabelText('Other checks (one per line)'));
    await user.type(screen.getByLabelText('Other checks (one per line)'), ' First aid \n\nInsurance');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('Safeguarding policy saved')).toBeVisible();
    const body = {
      dbsMonths: 24,
      updateServiceMonths: 12,
      warningDays: 14,
      checkTypes: ['First aid', 'Insurance'],
    };
    expect(sent).toEqual({ previewed: [body], saved: [body] });
    expect(screen.queryByText(/must be/)).toBeNull();
  });

  test("a refused save shows the server's message, by field or for the form", async () => {
    let refusal = () =>
      HttpResponse.json(
        {
          message: 'Invalid policy',
          fieldErrors: { 'checkTypes.0': ['Each check type may be listed once'] },
        },
        { status: 400 },
      );
    policyApi(() => refusal());
    const { user } = renderWithApp(<SafeguardingPolicyCard />);
    await user.click(await screen.findByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('Each check type may be listed once')).toBeVisible();
    expect(screen.getByLabelText('Other checks (one per line)')).toHaveAttribute('aria-invalid', 'true');

    refusal = () =>
      HttpResponse.json({ message: 'The policy is being changed by someone else' }, { status: 409 });
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The policy is being changed by someone else');
    expect(screen.queryByText('Each check type may be listed once')).toBeNull();
  });
});
