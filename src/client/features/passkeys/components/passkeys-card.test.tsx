import type { PasskeySummary } from '@shared/schemas/passkeys';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { type FakeWebAuthn, installWebAuthn } from '@/test/web-authn';
import { PasskeysCard } from './passkeys-card';

const LAPTOP: PasskeySummary = {
  id: 1,
  name: 'Work laptop',
  createdAt: '2026-03-04T10:00:00.000Z',
  lastUsedAt: '2026-05-06T10:00:00.000Z',
};

const REGISTRATION_OPTIONS = {
  options: {
    challenge: 'Y2hhbGxlbmdl',
    rp: { id: 'localhost', name: 'Arts Facilitator Portal' },
    user: { id: 'dXNlci0x', name: 'alice', displayName: 'Alice' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  },
};

/** The account's passkeys as the server keeps them, with what each route was sent. */
function passkeysServer(start: PasskeySummary[], enabled = true) {
  let list = [...start];
  const sent = { added: [] as { name: string }[], renamed: [] as unknown[], removed: [] as string[] };
  server.use(
    http.get('/api/passkeys/status', () => HttpResponse.json({ enabled })),
    http.get('/api/passkeys', () => HttpResponse.json(list)),
    http.post('/api/passkeys/options', () => HttpResponse.json(REGISTRATION_OPTIONS)),
    http.post('/api/passkeys', async ({ request }) => {
      const body = (await request.json()) as { name: string };
      sent.added.push(body);
      const added = {
        id: list.length + 10,
        name: body.name,
        createdAt: '2026-06-01T09:00:00.000Z',
        lastUsedAt: null,
      };
      list = [...list, added];
      return HttpResponse.json(added, { status: 201 });
    }),
    http.put('/api/passkeys/:id', async ({ request, params }) => {
      const body = (await request.json()) as { name: string };
      sent.renamed.push({ id: params.id, ...body });
      list = list.map((p) => (String(p.id) === params.id ? { ...p, name: body.name } : p));
      return HttpResponse.json(list.find((p) => String(p.id) === params.id));
    }),
    http.delete('/api/passkeys/:id', ({ params }) => {
      sent.removed.push(String(params.id));
      list = list.filter((p) => String(p.id) !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return sent;
}

let webAuthn: FakeWebAuthn;
beforeEach(() => {
  webAuthn = installWebAuthn();
});
afterEach(() => webAuthn.remove());

describe('PasskeysCard', () => {
  test('lists the passkeys with when they were added and last used', async () => {
    passkeysServer([LAPTOP, { ...LAPTOP, id: 2, name: 'Phone', lastUsedAt: null }]);
    renderWithApp(<PasskeysCard />);
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Work laptop');
    expect(items[0]).toHaveTextContent('Added 4 Mar 2026 · last used 6 May 2026');
    expect(items[1]).toHaveTextContent('Phone');
    expect(items[1]).toHaveTextContent('not used yet');
  });

  test('needs a name before asking the browser, then adds the passkey under it', async () => {
    const sent = passkeysServer([]);
    const { user } = renderWithApp(<PasskeysCard />);
    expect(await screen.findByText('You have no passkeys yet.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Give the passkey a name')).toBeVisible();
    expect(screen.getByLabelText('Name for the new passkey')).toHaveAttribute('aria-invalid', 'true');
    expect(webAuthn.calls.create).toBe(0);

    await user.type(screen.getByLabelText('Name for the new passkey'), '  My phone ');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('"My phone" can now sign you in.')).toBeVisible();
    expect(sent.added).toEqual([
      expect.objectContaining({
        name: 'My phone',
        response: expect.objectContaining({ type: 'public-key' }),
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('My phone');
    expect(screen.getByLabelText('Name for the new passkey')).toHaveValue('');
  });

  test('a cancelled or refused add says why and keeps the name', async () => {
    const sent = passkeysServer([]);
    const { user } = renderWithApp(<PasskeysCard />);
    await user.type(await screen.findByLabelText('Name for the new passkey'), 'My phone');

    webAuthn.create = { error: 'NotAllowedError' };
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No passkey was used: the request was cancelled or timed out.',
    );

    webAuthn.create = { error: 'InvalidStateError' };
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'This device already holds a passkey for your account.',
      ),
    );

    webAuthn.create = 'credential';
    server.use(
      http.post('/api/passkeys', () =>
        HttpResponse.json(
          { message: 'The passkey could not be added: the challenge has expired' },
          { status: 400 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'The passkey could not be added: the challenge has expired',
      ),
    );
    expect(sent.added).toEqual([]);
    expect(screen.getByLabelText('Name for the new passkey')).toHaveValue('My phone');
    expect(screen.getByText('You have no passkeys yet.')).toBeVisible();
  });

  test('renames a passkey; an empty name is refused and Cancel keeps the old one', async () => {
    const sent = passkeysServer([LAPTOP]);
    const { user } = renderWithApp(<PasskeysCard />);
    await user.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const form = screen.getByRole('form', { name: 'Rename Work laptop' });
    const field = within(form).getByLabelText('New name');
    await waitFor(() => expect(field).toHaveFocus());

    await user.clear(field);
    await user.click(within(form).getByRole('button', { name: 'Save name' }));
    expect(await within(form).findByText('Give the passkey a name')).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Rename Work laptop' })).not.toBeInTheDocument();
    expect(sent.renamed).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    const again = screen.getByRole('form', { name: 'Rename Work laptop' });
    await user.clear(within(again).getByLabelText('New name'));
    await user.type(within(again).getByLabelText('New name'), 'Office laptop');
    await user.click(within(again).getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('It is now called "Office laptop".')).toBeVisible();
    expect(sent.renamed).toEqual([{ id: '1', name: 'Office laptop' }]);
    expect(await screen.findByRole('button', { name: 'Rename Office laptop' })).toBeVisible();
    expect(screen.queryByRole('form', { name: /^Rename/ })).not.toBeInTheDocument();
  });

  test('removes a passkey only after confirming; Keep it keeps it', async () => {
    const sent = passkeysServer([LAPTOP]);
    const { user } = renderWithApp(<PasskeysCard />);
    await user.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove this passkey?' });
    expect(dialog).toHaveTextContent('"Work laptop" will no longer sign you in.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(sent.removed).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Remove this passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey removed')).toBeVisible();
    expect(await screen.findByText('You have no passkeys yet.')).toBeVisible();
    expect(sent.removed).toEqual(['1']);
  });

  test('says when the portal or the browser has no passkeys, and offers no form', async () => {
    passkeysServer([], false);
    const { unmount } = renderWithApp(<PasskeysCard />);
    expect(
      await screen.findByText('Passkeys are not available on this portal yet: ask your administrator.'),
    ).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Add a passkey' })).not.toBeInTheDocument();
    unmount();

    webAuthn.remove();
    passkeysServer([]);
    renderWithApp(<PasskeysCard />);
    expect(await screen.findByText('This browser cannot make passkeys.')).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });
});
