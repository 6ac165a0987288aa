/**
 * Which reads the service worker keeps for use offline, and how a kept copy is marked. Shared by the
 * service worker and the page (which clears the cache and reads the mark).
 */

/** The cache holding the last successful answer of each facilitator read below. */
export const OFFLINE_READS_CACHE = 'afp-offline-reads';

/** Set on a kept copy: when it was saved (ISO 8601). A fresh answer never carries it. */
export const SAVED_AT_HEADER = 'x-afp-saved-at';

/**
 * The signed-in person's own reads that the calendar and the offers page use: the session, their
 * availability and bookings for a range, their offers. Staff reads (/api/staff/...) and everything
 * else are never kept.
 */
export function isOfflineRead(url: URL): boolean {
  switch (url.pathname) {
    case '/api/user':
    case '/api/offers':
      return url.search === '';
    case '/api/availability':
    case '/api/bookings':
      return url.searchParams.has('from') && url.searchParams.has('to') && !url.searchParams.has('userId');
    default:
      return false;
  }
}
