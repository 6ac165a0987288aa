import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { AppLayout } from './app-layout';

const facilitator = anAccount({ id: 7, username: 'dana@example.org', displayName: 'Dana Desk' });

describe('the facilitator layout: Sign Out', () => {
  test('says it is signing out and takes no second click until the server answers', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let logouts = 0;
    server.use(
      http.post('/api/logout', async () => {
        logouts += 1;
        await held;
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    const { user, history } = renderWithApp(
      <AppLayout>
        <p>the page</p>
      </AppLayout>,
      { path: '/settings', user: facilitator },
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('button', { name: 'Sign Out' }));
    const pending = await within(nav).findByRole('button', { name: 'Signing out...' });
    expect(pending).toBeDisabled();
    await user.click(pending);
    expect(logouts).toBe(1);

    release();
    expect(await screen.findByText('You have been successfully logged out')).toBeVisible();
    expect(history.at(-1)).toBe('/');
  });
});
