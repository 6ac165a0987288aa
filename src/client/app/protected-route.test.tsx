import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { ProtectedRoute } from './protected-route';

const FACILITATOR = anAccount({ id: 7, username: 'alice.walker@example.org', displayName: 'Alice Walker' });

function Page() {
  return <h1>The guarded page</h1>;
}

describe('ProtectedRoute', () => {
  test.each(['/', '/settings', '/change-password'])(
    'sends a signed-out visitor to %s on to /auth, without showing the page',
    async (path) => {
      const { history } = renderWithApp(<ProtectedRoute path={path} component={Page} />, { path });
      await expect.poll(() => history.at(-1)).toBe('/auth');
      expect(screen.queryByRole('heading', { name: 'The guarded page' })).toBeNull();
    },
  );

  test('shows the page to someone signed in', async () => {
    const { history } = renderWithApp(<ProtectedRoute path="/settings" component={Page} />, {
      path: '/settings',
      user: FACILITATOR,
    });
    expect(await screen.findByRole('heading', { name: 'The guarded page' })).toBeVisible();
    expect(history).toEqual(['/settings']);
  });
});
