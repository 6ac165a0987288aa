import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { anOffer } from '@/test/offers';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { OfferAnswerDialog } from './my-offers';

// already seen, so opening it sends nothing
const offer = anOffer({ state: 'seen' });

/** The facilitator's offers, and the decline answering as `answer` says; returns the bodies sent. */
function declineApi(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.get('/api/offers', () => HttpResponse.json([offer])),
    http.post('/api/offers/4/decline', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

/** Opens the dialog and its decline step, whose code loads on demand; returns the dialog. */
async function openDeclineStep() {
  const view = renderWithApp(<OfferAnswerDialog offer={offer} onClose={() => {}} />);
  const dialog = screen.getByRole('dialog', { name: 'Session offered to you' });
  await view.user.click(within(dialog).getByRole('button', { name: 'Decline…' }));
  await within(dialog).findByLabelText('Reason (optional)');
  return { user: view.user, dialog };
}

describe('OfferAnswerDialog: declining', () => {
  test('sends the reason given, and says so', async () => {
    const bodies = declineApi(() => HttpResponse.json({ ...offer, state: 'declined' }));
    const { user, dialog } = await openDeclineStep();
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Away that week');
    await user.click(within(dialog).getByRole('button', { name: 'Decline offer' }));
    expect(await screen.findByText('Offer declined')).toBeVisible();
    expect(bodies).toEqual([{ reason: 'Away that week' }]);
  });

  test("a refused answer shows the server's message", async () => {
    declineApi(() => HttpResponse.json({ message: 'The portal is busy, try again' }, { status: 503 }));
    const { user, dialog } = await openDeclineStep();
    await user.click(within(dialog).getByRole('button', { name: 'Decline offer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The portal is busy, try again');
    expect(within(dialog).getByRole('button', { name: 'Decline offer' })).toBeVisible();
  });

  test('Back keeps the reason typed so far for when the person declines after all', async () => {
    const bodies = declineApi(() => HttpResponse.json({ ...offer, state: 'declined' }));
    const { user, dialog } = await openDeclineStep();
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Unwell');
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).queryByLabelText('Reason (optional)')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Accept session' })).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Decline…' }));
    expect(await within(dialog).findByLabelText('Reason (optional)')).toHaveValue('Unwell');
    await user.click(within(dialog).getByRole('button', { name: 'Decline offer' }));
    expect(await screen.findByText('Offer declined')).toBeVisible();
    expect(bodies).toEqual([{ reason: 'Unwell' }]);
  });
});
