import type { PublicUser } from '@shared/schemas/users';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { type FakeWebAuthn, installWebAuthn } from '@/test/web-authn';
import { passkeysKeys } from '../api/passkeys-api';
import { PasskeySignIn } from './passkey-sign-in';

const ALICE = anAccount({ id: 7, username: 'alice', displayName: 'Alice' });

const OPTIONS = { options: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' } };

interface Portal {
  /** the bodies the sign-in route received */
  signIns: unknown[];
}

/** A portal with passkeys on (unless `enabled` is false) whose sign-in route answers `signIn`. */
function portal(signIn: () => Response | Promise<Response>, enabled = true): Portal {
  const state: Portal = { signIns: [] };
  server.use(
    http.get('/api/passkeys/status', () => HttpResponse.json({ enabled })),
    http.post('/api/passkey-sign-in/options', () => HttpResponse.json(OPTIONS)),
    http.post('/api/passkey-sign-in', async ({ request }) => {
      state.signIns.push(await request.json());
      return signIn();
    }),
  );
  return state;
}

let webAuthn: FakeWebAuthn;
beforeEach(() => {
  webAuthn = installWebAuthn();
});
afterEach(() => webAuthn.remove());

function renderButton(page: 'facilitator' | 'staff' = 'facilitator') {
  const signedIn: PublicUser[] = [];
  const rendered = renderWithApp(<PasskeySignIn page={page} onSignedIn={(user) => signedIn.push(user)} />);
  return { ...rendered, signedIn };
}

describe('PasskeySignIn', () => {
  test('signs in: the browser answers, the server opens the session, the page hears who it is', async () => {
    const state = portal(() => HttpResponse.json(ALICE));
    const { user, signedIn, queryClient } = renderButton();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(signedIn).toEqual([ALICE]));
    expect(state.signIns).toEqual([expect.objectContaining({ page: 'facilitator' })]);
    expect(queryClient.getQueryData(queryKeys.session.all)).toEqual(ALICE);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('says so when the person cancels, and nothing is sent to sign in', async () => {
    const state = portal(() => HttpResponse.json(ALICE));
    webAuthn.get = { error: 'NotAllowedError' };
    const { user, signedIn } = renderButton();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No passkey was used: the request was cancelled or timed out.',
    );
    expect(webAuthn.calls.get).toBe(1);
    expect(state.signIns).toEqual([]);
    expect(signedIn).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
  });

  test("shows the server's refusal, and a second try that works clears it", async () => {
    let refuse = true;
    portal(() =>
      refuse
        ? HttpResponse.json(
            { message: 'That passkey could not sign you in. Try again or use your password.' },
            { status: 401 },
          )
        : HttpResponse.json(ALICE),
    );
    const { user, signedIn } = renderButton();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That passkey could not sign you in. Try again or use your password.',
    );
    expect(signedIn).toEqual([]);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(signedIn).toEqual([ALICE]));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('on the staff page a refusal without words reads as the password form says it', async () => {
    const state = portal(() => new HttpResponse(null, { status: 401 }));
    const { user } = renderButton('staff');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials');
    expect(state.signIns).toEqual([expect.objectContaining({ page: 'staff' })]);
  });

  test('a lost connection says to try again', async () => {
    portal(() => HttpResponse.json(ALICE));
    server.use(http.post('/api/passkey-sign-in/options', () => HttpResponse.error()));
    const { user } = renderButton();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error - please try again');
    expect(webAuthn.calls.get).toBe(0);
  });

  test('says it is waiting, and cannot be pressed twice, until the server answers', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    portal(async () => {
      await answered;
      return HttpResponse.json(ALICE);
    });
    const { user, signedIn } = renderButton();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('button', { name: 'Waiting for your passkey...' })).toBeDisabled();
    answer();
    await waitFor(() => expect(signedIn).toEqual([ALICE]));
  });

  test("the username field's passkey suggestion signs in when one is picked", async () => {
    webAuthn.autofill = 'credential';
    const state = portal(() => HttpResponse.json(ALICE));
    const signedIn: PublicUser[] = [];
    renderWithApp(
      <>
        <input aria-label="Username" autoComplete="username webauthn" />
        <PasskeySignIn page="facilitator" onSignedIn={(user) => signedIn.push(user)} />
      </>,
    );
    await waitFor(() => expect(signedIn).toEqual([ALICE]));
    expect(webAuthn.calls).toMatchObject({ autofill: 1, get: 0 });
    expect(state.signIns).toHaveLength(1);
  });

  test('says nothing when the suggestions fail before anyone picked a passkey, and the button still works', async () => {
    for (const error of ['NotSupportedError', 'NotAllowedError', 'AbortError']) {
      webAuthn.autofill = { error };
      webAuthn.calls.autofill = 0;
      portal(() => HttpResponse.json(ALICE));
      const signedIn: PublicUser[] = [];
      const { user, unmount } = renderWithApp(
        <>
          <input aria-label="Username" autoComplete="username webauthn" />
          <PasskeySignIn page="staff" onSignedIn={(u) => signedIn.push(u)} />
        </>,
      );
      await waitFor(() => expect(webAuthn.calls.autofill).toBe(1));
      const button = await screen.findByRole('button', { name: 'Sign in with a passkey' });
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      await user.click(button);
      await waitFor(() => expect(signedIn).toEqual([ALICE]));
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      unmount();
    }
  });

  test('a suggested passkey the portal refuses is said', async () => {
    webAuthn.autofill = 'credential';
    portal(() =>
      HttpResponse.json(
        { message: 'That passkey could not sign you in. Try again or use your password.' },
        { status: 401 },
      ),
    );
    renderWithApp(
      <>
        <input aria-label="Username" autoComplete="username webauthn" />
        <PasskeySignIn page="facilitator" onSignedIn={() => {}} />
      </>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That passkey could not sign you in. Try again or use your password.',
    );
  });

  test('shows nothing on a portal without passkeys', async () => {
    portal(() => HttpResponse.json(ALICE), false);
    const { queryClient } = renderButton();
    // the answer has arrived and been rendered
    await waitFor(() => expect(queryClient.getQueryData(passkeysKeys.status())).toEqual({ enabled: false }));
    expect(screen.queryByText('or without a password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });

  test('shows nothing in a browser without passkeys', async () => {
    webAuthn.remove();
    portal(() => HttpResponse.json(ALICE));
    const { queryClient } = renderButton();
    await waitFor(() => expect(queryClient.getQueryData(passkeysKeys.status())).toEqual({ enabled: true }));
    expect(screen.queryByText('or without a password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});
