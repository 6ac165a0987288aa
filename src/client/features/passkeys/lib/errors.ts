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
  return fallback;
}

/** A cancelled conditional request (another ceremony took over, or the page left): nothing to say. */
export function isAbort(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: string } | null)?.code ?? '';
  return name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED';
}
