import { MICROSOFT_SIGN_IN_ERRORS, type MicrosoftSignInError } from '@shared/sign-in';

/** What went wrong and what to do about it, for each reason the server sends back. */
export const MICROSOFT_ERROR_MESSAGES: Record<MicrosoftSignInError, string> = {
  not_configured:
    'Sign in with Microsoft is not set up for this portal. Sign in with your username and password, or ask your administrator.',
  cancelled: 'Sign-in with Microsoft was cancelled. Choose "Sign in with Microsoft" to try again.',
  expired_request:
    'That sign-in took too long, was already used, or was finished in a different browser. Start again from this page.',
  wrong_tenant:
    'That Microsoft account belongs to another organisation. Sign in with your work account for this organisation (you may need to sign out of Microsoft first).',
  wrong_issuer:
    "Microsoft's answer did not come from this organisation's directory. Try again; if it keeps happening, ask your administrator to check the tenant ID.",
  no_invitation:
    'Your Microsoft account is not linked to a portal account yet. Ask a staff member for an invitation link, open it, and sign in from there.',
  invitation_invalid:
    'This invitation link has expired or has already been used. Ask a staff member for a new one.',
  already_linked:
    'This portal account is already linked to another Microsoft account, so the invitation could not link yours. Ask a staff member for an invitation that replaces it.',
  facilitators_off:
    'This organisation has turned off signing in with Microsoft for facilitators. Sign in with your username and password instead.',
  deactivated: 'This account has been deactivated. Ask the office if you need to sign in again.',
  missing_role:
    "Your Microsoft account does not have the portal's staff role any more. Ask your administrator to assign it to you in Entra ID.",
  clock_skew:
    "The sign-in could not be checked because this server's clock and Microsoft's disagree. Try again in a minute; if it keeps happening, ask your administrator to check the server's time.",
  provider_unreachable: 'Microsoft sign-in could not be reached. Check your connection and try again.',
  client_rejected:
    "Microsoft did not accept this portal's client secret or certificate. Ask your administrator to check the app registration's certificates and secrets.",
  failed: 'Sign-in with Microsoft did not succeed. Try again; if it keeps happening, ask your administrator.',
};

/** The message for a `microsoftError` query value, or null when there is none (or it is not ours). */
export function microsoftErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return (MICROSOFT_SIGN_IN_ERRORS as readonly string[]).includes(code)
    ? MICROSOFT_ERROR_MESSAGES[code as MicrosoftSignInError]
    : MICROSOFT_ERROR_MESSAGES.failed;
}
