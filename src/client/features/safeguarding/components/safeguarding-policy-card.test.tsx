import type { SafeguardingPolicyBody, SafeguardingPolicyPreview } from '@shared/schemas/safeguarding';
import { screen, within } from '@testing-library/react';
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

/** Nobody's state changes. */
const noChange: SafeguardingPolicyPreview = { date: '2026-03-10', changes: [], facilitators: 3 };

/** The policy, its preview (`preview`) and its save answering as `answer` says; returns what was sent. */
function policyApi(
  answer: (body: SafeguardingPolicyBody) => Response,
  preview: SafeguardingPolicyPreview = noChange,
) {
  const sent: { previewed: unknown[]; saved: unknown[] } = { previewed: [], saved: [] };
  server.use(
    http.get(URL, () => HttpResponse.json(policy)),
    http.post(`${URL}/preview`, async ({ request }) => {
      sent.previewed.push(await request.json());
      return HttpResponse.json(preview);
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

  test('a policy that changes anyone’s state asks first, naming whose and who would be left out', async () => {
    const sent = policyApi((body) => HttpResponse.json(body), {
      date: '2026-03-10',
      facilitators: 12,
      changes: [
        {
          userId: 1,
          name: 'Eli Expired',
          from: 'expired',
          to: 'missing',
          reasons: ['No First aid recorded'],
        },
        { userId: 2, name: 'Sue Soon', from: 'expiring', to: 'missing', reasons: ['No First aid recorded'] },
        { userId: 3, name: 'Vera Valid', from: 'valid', to: 'missing', reasons: ['No First aid recorded'] },
      ],
    });
    const { user } = renderWithApp(<SafeguardingPolicyCard />);
    const types = await screen.findByLabelText('Other checks (one per line)');
    await user.type(types, 'First aid');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Save this policy?' });
    // Eli could not be sent before either: two are newly left out
    expect(dialog).toHaveTextContent(
      'It changes the safeguarding state of 3 facilitators of 12 from today. 2 of them will be left out of Who is free, and offering them a session will need a reason. Sessions before today keep the policy they had.',
    );
    const changes = within(dialog).getByRole('list', { name: 'Whose state changes' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Eli Expired: Expired → MissingNo First aid recorded',
      'Sue Soon: Expiring soon → MissingNo First aid recorded',
      'Vera Valid: Checks valid → MissingNo First aid recorded',
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(types).toHaveValue('First aid');
    expect(sent.saved).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    const again = await screen.findByRole('alertdialog', { name: 'Save this policy?' });
    await user.click(within(again).getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('Safeguarding policy saved')).toBeVisible();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const body = { ...policy, checkTypes: ['First aid'] };
    expect(sent).toEqual({ previewed: [body, body], saved: [body] });
  });

  test('a change that leaves nobody out says only whose state it changes', async () => {
    policyApi((body) => HttpResponse.json(body), {
      date: '2026-03-10',
      facilitators: 1,
      changes: [{ userId: 3, name: 'Vera Valid', from: 'valid', to: 'expiring', reasons: [] }],
    });
    const { user } = renderWithApp(<SafeguardingPolicyCard />);
    const warning = await screen.findByLabelText('Warn this many days before');
    await user.clear(warning);
    await user.type(warning, '90');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Save this policy?' });
    expect(dialog).toHaveTextContent(
      'It changes the safeguarding state of 1 facilitator of 1 from today. Sessions before today keep the policy they had.',
    );
    expect(within(dialog).getByRole('listitem')).toHaveTextContent(
      'Vera Valid: Checks valid → Expiring soon',
    );
  });
});
