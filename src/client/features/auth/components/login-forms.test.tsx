import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { FacilitatorLogin } from './facilitator-login';
import { StaffLogin } from './staff-login';

const STAFF = anAccount({ id: 1, username: 'admin', displayName: 'Admin', role: 'staff' });

/** Microsoft sign-in is off, as on a portal that has not configured it. */
function microsoftOff() {
  server.use(
    http.get('/api/auth/microsoft', () =>
      HttpResponse.json({
        enabled: false,
        staffPasswordSignIn: true,
        facilitatorSignIn: false,
      }),
    ),
  );
}

describe('FacilitatorLogin', () => {
  test('checks on submit with the shared rules, then as the person types; sends the trimmed name', async () => {
    microsoftOff();
    let sent: unknown = null;
    server.use(
      http.post('/api/login', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Invalid username or password' }, { status: 401 });
      }),
    );
    const { user } = renderWithApp(<FacilitatorLogin />);

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeVisible();
    expect(screen.getByText('Password must be at least 6 characters')).toBeVisible();
    expect(screen.getByLabelText('Username')).toHaveFocus();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toBeNull();

    // too short, not only empty
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeVisible();
    expect(screen.getByText('Password must be at least 6 characters')).toBeVisible();
    expect(sent).toBeNull();
    await user.clear(screen.getByLabelText('Username'));
    await user.clear(screen.getByLabelText('Password'));

    await user.type(screen.getByLabelText('Username'), '  ann  ');
    expect(screen.queryByText('Username must be at least 3 characters')).toBeNull();
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeVisible();
    expect(screen.getByText('Invalid username or password')).toBeVisible();
    expect(sent).toEqual({ username: 'ann', password: 'secret-1' });
  });
});

describe('StaffLogin', () => {
  test('shows the first rule broken, then the server message, in one alert', async () => {
    microsoftOff();
    server.use(
      http.post('/api/auth/staff-login', () =>
        HttpResponse.json({ message: 'Invalid credentials' }, { status: 401 }),
      ),
    );
    const { user } = renderWithApp(<StaffLogin />, { path: '/staff-login' });

    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter both username and password');
    // one field is not enough
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter both username and password');
    expect(screen.getByRole('link', { name: 'Back to facilitator login' })).toHaveAttribute('href', '/auth');
    await user.clear(screen.getByLabelText('Username'));

    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid credentials')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid credentials');
  });

  test('the password can be shown and hidden', async () => {
    microsoftOff();
    const { user } = renderWithApp(<StaffLogin />, { path: '/staff-login' });
    const password = await screen.findByLabelText('Password');
    await user.type(password, 'secret-value');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('secret-value');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  test('a network failure says so', async () => {
    microsoftOff();
    server.use(http.post('/api/auth/staff-login', () => HttpResponse.error()));
    const { user } = renderWithApp(<StaffLogin />, { path: '/staff-login' });
    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Network error - please try again')).toBeVisible();
  });

  test('signed in, the session holds the account and the person goes to the staff pages', async () => {
    microsoftOff();
    server.use(http.post('/api/auth/staff-login', () => HttpResponse.json(STAFF)));
    const { user, history, queryClient } = renderWithApp(<StaffLogin />, { path: '/staff-login' });
    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await expect.poll(() => history.at(-1)).toBe('/staff');
    expect(queryClient.getQueryData(['session'])).toEqual(STAFF);
  });
});
