import type { FreeFacilitator, FreeResult } from '@shared/schemas/free';
import type { OpenSession, OpenSessionsResponse, StaffOffer } from '@shared/schemas/offers';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { aStaffOffer } from '@/test/offers';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { OpenSessions } from './open-sessions';

const session: OpenSession = {
  id: 9,
  sharePointId: '90',
  title: 'Clay workshop',
  // far ahead, so the default reply-by (tomorrow at 17:00) is always before it
  date: '2099-06-10',
  startTime: '10:00',
  endTime: '12:00',
  schoolName: 'Riverside Primary',
  program: 'Clay',
  location: null,
  liveOffers: 0,
  pendingAcceptance: false,
};

const candidate = (userId: number, name: string, state: 'valid' | 'missing'): FreeFacilitator => ({
  userId,
  name,
  email: null,
  area: 'North',
  status: 'available',
  startTime: '09:00',
  endTime: '17:00',
  availabilityNotes: '',
  fit: null,
  bookingsCount: 0,
  bookings: [],
  notes: [],
  safeguarding: { state, reasons: state === 'missing' ? ['No DBS check recorded'] : [] },
  free: true,
  reasons: [],
});

/** One open session, its two candidates, no offers yet, and the send answering as `answer` says. */
function offersApi(answer: () => Response) {
  const bodies: unknown[] = [];
  const list: OpenSessionsResponse = { sessions: [session], pending: [], sharePointConfigured: true };
  const free: FreeResult = {
    date: session.date,
    from: null,
    to: null,
    areas: [],
    include: 'free',
    availableAreas: ['North'],
    facilitators: [candidate(1, 'Vera Valid', 'valid'), candidate(2, 'Nina Missing', 'missing')],
    freeCount: 2,
    leftOutCount: 0,
    nextCursor: null,
  };
  server.use(
    http.get('/api/staff/sessions', () => HttpResponse.json(list)),
    http.get('/api/staff/sessions/9/candidates', () => HttpResponse.json(free)),
    http.get('/api/staff/sessions/9/offers', () => HttpResponse.json([])),
    http.post('/api/staff/sessions/9/offers', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

async function openOfferDialog() {
  const rendered = renderWithApp(<OpenSessions />);
  await rendered.user.click(await screen.findByRole('button', { name: /^Offer / }));
  const dialog = screen.getByRole('dialog', { name: 'Offer this session' });
  await within(dialog).findByRole('checkbox', { name: /Vera Valid/ });
  return { ...rendered, dialog };
}

describe('OpenSessions: the offer dialog', () => {
  test('asks a reason for someone whose checks do not allow sending, and a reply-by, before sending', async () => {
    const bodies = offersApi(() => HttpResponse.json({ offers: [{ id: 1 }] }, { status: 201 }));
    const { user, dialog } = await openOfferDialog();
    const send = within(dialog).getByRole('button', { name: 'Send offer' });
    expect(send).toBeDisabled();
    expect(within(dialog).queryByLabelText('Reason for offering despite safeguarding checks')).toBeNull();

    await user.click(within(dialog).getByRole('checkbox', { name: /Nina Missing/ }));
    const reason = within(dialog).getByLabelText('Reason for offering despite safeguarding checks');
    await user.clear(within(dialog).getByLabelText('Reply by'));
    await user.click(send);
    expect(
      await within(dialog).findByText('Give the reason for offering despite safeguarding checks'),
    ).toBeVisible();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Reply-by must be a date and time')).toBeVisible();
    expect(bodies).toEqual([]);

    await user.type(reason, 'DBS certificate seen in person');
    await user.type(within(dialog).getByLabelText('Reply by'), '2099-06-01T17:00');
    await user.click(within(dialog).getByRole('checkbox', { name: /Vera Valid/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send 2 offers' }));
    expect(await screen.findByText('Offer sent')).toBeVisible();
    expect(bodies).toEqual([
      {
        userIds: [2, 1],
        message: '',
        replyBy: new Date('2099-06-01T17:00').toISOString(),
        autoNext: false,
        safeguardingOverride: { reason: 'DBS certificate seen in person' },
        confirmNotFree: false,
      },
    ]);
    // sent: nobody is chosen, so no reason is asked
    expect(within(dialog).queryByLabelText('Reason for offering despite safeguarding checks')).toBeNull();
  });

  test('the chosen who are not free are named for staff to confirm; another refusal shows its message', async () => {
    const answers = [
      () =>
        HttpResponse.json(
          {
            message: 'Some are not free',
            fieldErrors: { confirmNotFree: ['Vera Valid is booked on the day'] },
          },
          { status: 409 },
        ),
      () => HttpResponse.json({ message: 'The session is no longer open' }, { status: 400 }),
    ];
    const bodies = offersApi(() => answers.shift()!());
    const { user, dialog } = await openOfferDialog();
    await user.click(within(dialog).getByRole('checkbox', { name: /Vera Valid/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send offer' }));
    const warning = await within(dialog).findByRole('alert');
    expect(warning).toHaveTextContent('Not everyone you chose looks free:');
    expect(warning).toHaveTextContent('Vera Valid is booked on the day');

    await user.click(within(warning).getByRole('button', { name: 'Offer anyway' }));
    expect(await within(dialog).findByText('The session is no longer open')).toBeVisible();
    expect(bodies).toMatchObject([{ confirmNotFree: false }, { confirmNotFree: true, userIds: [1] }]);
    expect(within(dialog).getByRole('checkbox', { name: /Vera Valid/ })).toBeChecked();
  });
});

describe('OpenSessions: the offer dialog’s candidates, searched and paged on the server', () => {
  test('a search is sent once typing pauses; someone chosen before it still needs a reason', async () => {
    const bodies = offersApi(() => HttpResponse.json({ offers: [{ id: 1 }] }, { status: 201 }));
    const searches: (string | null)[] = [];
    const answer = (facilitators: FreeFacilitator[]): FreeResult => ({
      date: session.date,
      from: null,
      to: null,
      areas: [],
      include: 'all',
      availableAreas: ['North'],
      facilitators,
      freeCount: facilitators.length,
      leftOutCount: 0,
      nextCursor: null,
    });
    server.use(
      http.get('/api/staff/sessions/9/candidates', ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        searches.push(search);
        return HttpResponse.json(
          answer(
            search === 'vera'
              ? [candidate(1, 'Vera Valid', 'valid')]
              : [candidate(1, 'Vera Valid', 'valid'), candidate(2, 'Nina Missing', 'missing')],
          ),
        );
      }),
    );
    const { user, dialog } = await openOfferDialog();
    await user.click(within(dialog).getByRole('checkbox', { name: /Nina Missing/ }));
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search facilitators' }), 'vera ');
    await waitFor(() => expect(within(dialog).queryByRole('checkbox', { name: /Nina Missing/ })).toBeNull());
    expect(searches).toEqual([null, 'vera']);
    // Nina is still chosen, out of the list: her checks still ask for a reason
    expect(within(dialog).getByText(/do not allow sending Nina Missing/)).toBeVisible();
    await user.type(
      within(dialog).getByLabelText('Reason for offering despite safeguarding checks'),
      'Seen in person',
    );
    await user.click(within(dialog).getByRole('checkbox', { name: /Vera Valid/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send 2 offers' }));
    expect(await screen.findByText('Offer sent')).toBeVisible();
    expect(bodies).toMatchObject([{ userIds: [2, 1], safeguardingOverride: { reason: 'Seen in person' } }]);
  });
});

describe('OpenSessions: what staff see of a session and its candidates', () => {
  test('a session says how many offers wait for an answer, in words for one and for more', async () => {
    const list: OpenSessionsResponse = {
      sessions: [
        { ...session, liveOffers: 2 },
        { ...session, id: 10, schoolName: 'Hillside Academy', liveOffers: 1 },
        { ...session, id: 11, schoolName: 'Brookfield School', liveOffers: 0 },
      ],
      pending: [],
      sharePointConfigured: true,
    };
    server.use(http.get('/api/staff/sessions', () => HttpResponse.json(list)));
    renderWithApp(<OpenSessions />);
    const rows = within(await screen.findByRole('list', { name: 'Open sessions' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('2 offers waiting for an answer');
    expect(rows[1]).toHaveTextContent('1 offer waiting for an answer');
    expect(rows[2]).not.toHaveTextContent('waiting for an answer');
  });

  test('each candidate shows a safeguarding badge, its reasons as the title; choosing one whose checks do not allow sending says so', async () => {
    offersApi(() => HttpResponse.json({ offers: [] }, { status: 201 }));
    const { user, dialog } = await openOfferDialog();
    const missing = within(within(dialog).getByRole('list', { name: 'Facilitators' }))
      .getAllByRole('listitem')
      .find((item) => item.textContent?.includes('Nina Missing'))!;
    const badge = missing.querySelector('[data-safeguarding]');
    expect(badge).toHaveAttribute('data-safeguarding', 'missing');
    expect(badge).toHaveTextContent('Missing');
    expect(badge).toHaveAttribute('title', 'Missing: No DBS check recorded');
    const valid = within(within(dialog).getByRole('list', { name: 'Facilitators' }))
      .getAllByRole('listitem')
      .find((item) => item.textContent?.includes('Vera Valid'))!;
    expect(valid.querySelector('[data-safeguarding]')).toHaveAttribute('data-safeguarding', 'valid');

    expect(within(dialog).queryByText(/do not allow sending/)).toBeNull();
    await user.click(within(missing).getByRole('checkbox', { name: /Nina Missing/ }));
    expect(within(dialog).getByText(/do not allow sending Nina Missing/)).toBeVisible();
    expect(within(dialog).getByLabelText('Reason for offering despite safeguarding checks')).toBeVisible();
  });

  test('the offers made are listed with their state, a withdraw button while live, and any safeguarding override with its reason', async () => {
    offersApi(() => HttpResponse.json({ offers: [] }, { status: 201 }));
    // anOffer's session is `session` above, the one whose dialog is open
    const made = (userId: number, name: string, state: StaffOffer['state']) =>
      aStaffOffer({ id: userId, userId, name, state });
    server.use(
      http.get('/api/staff/sessions/9/offers', () =>
        HttpResponse.json([
          {
            ...made(2, 'Nina Missing', 'sent'),
            safeguardingOverride: { state: 'missing', reason: 'DBS certificate seen in person' },
          },
          made(1, 'Vera Valid', 'declined'),
        ]),
      ),
    );
    const { dialog } = await openOfferDialog();
    // the offers made are the dialog's list items outside its list of candidates
    const facilitators = within(dialog).getByRole('list', { name: 'Facilitators' });
    const offerTo = (name: string) =>
      within(dialog)
        .getAllByRole('listitem')
        .find((item) => !facilitators.contains(item) && item.textContent?.includes(name));
    await waitFor(() => expect(offerTo('Nina Missing')).toBeDefined());
    const nina = offerTo('Nina Missing')!;
    expect(within(nina).getByText('Sent', { exact: true })).toBeVisible();
    expect(nina).toHaveTextContent(
      'Offered despite safeguarding checks (missing): DBS certificate seen in person',
    );
    expect(within(nina).getByRole('button', { name: 'Withdraw the offer to Nina Missing' })).toBeVisible();
    const vera = offerTo('Vera Valid')!;
    expect(within(vera).getByText('Declined', { exact: true })).toBeVisible();
    expect(vera).not.toHaveTextContent('Offered despite safeguarding checks');
    expect(within(vera).queryByRole('button', { name: /^Withdraw/ })).toBeNull();
  });
});

describe('Refresh from SharePoint', () => {
  test('outlives the page: back on it while it runs it shows it running, and a failure after leaving is told', async () => {
    offersApi(() => HttpResponse.json([]));
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/staff/bookings/refresh', async () => {
        await answered;
        return HttpResponse.json({ message: 'SharePoint did not answer in time.' }, { status: 504 });
      }),
    );
    const { user } = renderWithApp(<PageAndAnother />);
    await screen.findByRole('button', { name: /^Offer / });
    await user.click(screen.getByRole('button', { name: 'Refresh from SharePoint' }));
    expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Leave the page' }));
    await user.click(screen.getByRole('button', { name: 'Open sessions' }));
    expect(await screen.findByRole('button', { name: 'Refreshing...' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Leave the page' }));
    answer();
    expect(await screen.findByText('Could not refresh from SharePoint')).toBeVisible();
    expect(screen.getByText('SharePoint did not answer in time.')).toBeVisible();
  });
});

/** The open sessions page, and a way to leave it and come back (each visit draws it anew). */
function PageAndAnother() {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown(false)}>
        Leave the page
      </button>
      <button type="button" onClick={() => setShown(true)}>
        Open sessions
      </button>
      {shown ? <OpenSessions /> : null}
    </>
  );
}
