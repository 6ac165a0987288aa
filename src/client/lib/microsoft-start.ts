import type { MicrosoftSignInPage } from '@shared/schemas/microsoft-sign-in';

/**
 * Leave for Microsoft sign-in: posts the portal's start form as a navigation, so the portal's answer
 * sends the browser on to Microsoft. The invitation goes in the form's body: in the address it would
 * reach proxy access logs. `page` is the login page the browser comes back to if the sign-in fails.
 */
export function startMicrosoftSignIn(invitation: string | null, page: MicrosoftSignInPage = 'staff'): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/api/auth/microsoft/start';
  form.hidden = true;
  const fields: Record<string, string> = { page };
  if (invitation) fields.invitation = invitation;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/**
 * The invitation a link opened this page with: in the fragment (`#invitation=…`), which browsers
 * never send to a server, or in the query string of a link made before invitations moved there.
 */
export function invitationFromAddress(location: Pick<Location, 'hash' | 'search'>): string | null {
  return (
    new URLSearchParams(location.hash.replace(/^#/, '')).get('invitation') ??
    new URLSearchParams(location.search).get('invitation')
  );
}
