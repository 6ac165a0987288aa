import { ApiError, errorMessage, isNetworkError } from '@/lib/api';

/** What went wrong in a passkey ceremony, in words: the server's message, or the browser's reason. */
export function passkeyErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return errorMessage(error, fallback);
  if (isNetworkError(error)) return 'Network error - please try again';
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: string } | null)?.code ?? '';
  if (name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED')
    return 'No passkey was used: the request was cancelled or timed out.';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return 'This device already holds a passkey for your account.';
  if (name === 'SecurityError') return 'This browser refused passkeys for this address.';
  if (name === 'NotSupportedError') return 'This browser or device cannot use passkeys here.';
  return fallback;
}
