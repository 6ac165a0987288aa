// Values the login pages need, kept apart from the schemas that use them: a schema module builds
// zod objects when it is imported, so importing one constant from it puts zod (about 22 KB
// compressed) on the login pages. The schema modules re-export these for the server.

/**
 * A cookie scripts may read, set beside the (HttpOnly) session cookie and cleared with it. It holds no
 * secret, only "someone may be signed in here": without it the client knows the visitor is anonymous
 * and does not ask `/api/user` (a 401 the browser would log as an error) or prefetch their calendar.
 */
export const SESSION_HINT_COOKIE = 'afp_signed_in';

/** Where the portal sends someone it signed out who may still be signed in to Microsoft. */
export const SIGNED_OUT_OF_PORTAL_ONLY = '/staff-login?signedOut=microsoft';

/**
 * Why a Microsoft sign-in did not end in a session. The callback sends the browser back to the login
 * page it started from (staff or facilitator) with one of these; the page says what happened and what
 * to do.
 */
export const MICROSOFT_SIGN_IN_ERRORS = [
  'not_configured',
  'cancelled',
  'expired_request',
  'wrong_tenant',
  'wrong_issuer',
  'no_invitation',
  'invitation_invalid',
  'already_linked',
  'missing_role',
  'facilitators_off',
  'deactivated',
  'clock_skew',
  'provider_unreachable',
  'client_rejected',
  'failed',
] as const;
export type MicrosoftSignInError = (typeof MICROSOFT_SIGN_IN_ERRORS)[number];
