import { screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { AppRouter } from './router';

const FACILITATOR = anAccount({
  id: 7,
  username: 'alice.walker@example.org',
  displayName: 'Alice Walker',
  email: 'alice.walker@example.org',
});

const STAFF_PAGES = [
  '/staff',
  '/staff-dashboard',
  '/staff/users',
  '/staff/free',
  '/staff/completeness',
  '/staff/sessions',
];

afterEach(() => window.history.replaceState(null, '', '/'));

describe('a staff page opened by a facilitator', () => {
  test.each(STAFF_PAGES)(
    '%s says it is for staff and where to go, and asks the server for nothing',
    async (path) => {
      // the address bar, which the staff login link reads, and the router's location
      window.history.replaceState(null, '', `${path}?week=2`);
      renderWithApp(<AppRouter />, { path, user: FACILITATOR });

      expect(await screen.findByRole('heading', { name: 'Staff only', level: 1 })).toBeVisible();
      expect(
        screen.getByText(
          'This page is only available to staff accounts. You are signed in as Alice Walker, which is not a staff account.',
        ),
      ).toBeVisible();
      expect(screen.queryByText(/Loading/)).not.toBeInTheDocument();
      expect(screen.queryByText(/403/)).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to your calendar' })).toHaveAttribute('href', '/');
      expect(screen.getByRole('link', { name: 'Sign in as staff' })).toHaveAttribute(
        'href',
        `/staff-login?next=${encodeURIComponent(`${path}?week=2`)}`,
      );
    },
  );
});
