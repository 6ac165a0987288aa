import { throwIfResNotOk } from '@/lib/api';

/** The filename the server gave in Content-Disposition, or the fallback. */
export function filenameFrom(disposition: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

/**
 * Fetches a file with the session cookie and hands it to the browser as a download. Fetching first
 * (rather than following a link) lets a refusal show as a message instead of a downloaded error page.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const res = await fetch(url, { credentials: 'include' });
  await throwIfResNotOk(res);
  const blob = await res.blob();
  const name = filenameFrom(res.headers.get('content-disposition'), fallbackName);
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // give the browser a moment to start the download before the object URL goes
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
