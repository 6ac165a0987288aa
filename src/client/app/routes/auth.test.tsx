import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import AuthRoute from './auth';

const FACILITATOR = anAccount({ id: 7, username: 'alice.walker@example.org', displayName: 'Alice Walker' });
const STAFF = anAccount({ id: 1, username: 'admin', displayName: 'Admin', role: 'staff' });

beforeEach(() => {
  // a portal without Microsoft sign-in or passkeys: the page shows the password form only
  server.use(
    http.get('/api/auth/microsoft', () =>
      HttpResponse.json({ enabled: false, staffPasswordSignIn: true, facilitatorSignIn: false }),
    ),
    http.get('/api/passkeys/status', () => HttpResponse.json({ enabled: false })),
  );
});

describe('the facilitator login page', () => {
  test('sends a signed-in facilitator home and signed-in staff to their dashboard', async () => {
    const facilitator = renderWithApp(<AuthRoute />, { path: '/auth', user: FACILITATOR });
    await expect.poll(() => facilitator.history.at(-1)).toBe('/');
    facilitator.unmount();

    const staff = renderWithApp(<AuthRoute />, { path: '/auth', user: STAFF });
    await expect.poll(() => staff.history.at(-1)).toBe('/staff');
  });

  test('staff who sign in on its form go to their dashboard', async () => {
    server.use(http.post('/api/login', () => HttpResponse.json(STAFF)));
    const { user, history } = renderWithApp(<AuthRoute />, { path: '/auth' });
    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'staff-secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await expect.poll(() => history.at(-1)).toBe('/staff');
  });
});
