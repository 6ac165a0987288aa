import type { MicrosoftSignInSettings } from '@shared/schemas/microsoft-sign-in';
import { act, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { useMicrosoftSignInSettings } from '../api/microsoft-sign-in-api';
import { MicrosoftSignInCard } from './microsoft-sign-in-card';

const stored: MicrosoftSignInSettings = {
  configured: true,
  connectionSource: 'settings',
  staffRoleSource: 'settings',
  publicUrlSet: true,
  tenantId: 'contoso.onmicrosoft.com',
  clientId: '00000000-0000-4000-8000-000000000001',
  hasClientSecret: true,
  clientSecretUnreadable: false,
  clientSecretCleared: false,
  hasClientCertificate: false,
  clientCertificate: null,
  clientCertificateUnreadable: false,
  clientCertificateCleared: false,
  redirectUri: 'https://portal.example.org/api/auth/microsoft/callback',
  staffRole: 'Portal.Staff',
  staffPasswordSignIn: true,
  createStaffFromRole: false,
  facilitatorSignIn: false,
  linkedStaff: 1,
  youAreLinked: true,
};

/** Says when the settings' latest read failed. */
function ReadState() {
  const settings = useMicrosoftSignInSettings();
  return settings.isError ? <p>The settings read again failed</p> : null;
}

test('a later read that fails (the connection back after a drop) leaves the form and what was typed', async () => {
  server.use(http.get('/api/staff/microsoft-sign-in', () => HttpResponse.json(stored)));
  const { user, queryClient } = renderWithApp(
    <>
      <MicrosoftSignInCard currentUserId={1} />
      <ReadState />
    </>,
  );
  const tenant = await screen.findByLabelText('Directory (tenant) ID');
  await user.clear(tenant);
  await user.type(tenant, 'fabrikam.onmicrosoft.com');

  server.use(http.get('/api/staff/microsoft-sign-in', () => HttpResponse.error()));
  await act(() => queryClient.invalidateQueries());
  // drawn in the same pass as the card, which then had the failed read too
  expect(await screen.findByText('The settings read again failed')).toBeVisible();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByLabelText('Directory (tenant) ID')).toHaveValue('fabrikam.onmicrosoft.com');
});
