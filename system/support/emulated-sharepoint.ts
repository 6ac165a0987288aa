/**
 * The SharePoint emulator in the test process, seeded with the portal's lists, and what a portal
 * process needs to reach it: environment (Graph and authority URLs) and the settings body staff save.
 */
import { portalSettingsFor, type RunningEmulator, startEmulator } from '../../src/sharepoint-emulator/index';
import type { ApiClient } from './http';

export interface EmulatedSharePoint {
  emulator: RunningEmulator;
  /** environment for startPortal */
  env: Record<string, string>;
  /** the body of POST /api/sharepoint/settings */
  settings: Record<string, string>;
  lists: { bookings: string; availability: string };
  /** Availability items by their key `{FreelancerID}|{yyyy-MM-dd}` (a duplicate shows as a longer array). */
  availabilityItems(): Map<string, Array<Record<string, unknown>>>;
  /** Graph delta reads of the Bookings list: one per bookings refresh while the list fits one page. */
  bookingsRefreshCalls(): number;
  /** POSTs to the Availability list: all of them, and those that created an item (201) */
  availabilityCreates(): { attempts: number; created: number };
  /** every item in the Availability list */
  availabilityItemCount(): number;
  /** Save the settings through a portal (staff client). */
  configure(staff: ApiClient): Promise<void>;
  close(): Promise<void>;
}

export async function startEmulatedSharePoint(seed = 'system'): Promise<EmulatedSharePoint> {
  const emulator = await startEmulator();
  const site = emulator.control.seedPortalSite({ seed, bookingCount: 20, facilitatorCount: 5 });
  const lists = {
    bookings: site.lists.bookings!,
    availability: site.lists.availability!,
  };
  const settings = portalSettingsFor(site, emulator.control.credentials);
  const itemsPath = (listId: string) => `*/lists/${listId}/items`;
  return {
    emulator,
    env: { GRAPH_BASE_URL: emulator.graphBaseUrl, AUTHORITY_HOST: emulator.authorityHost },
    settings,
    lists: { bookings: lists.bookings.id, availability: lists.availability.id },
    availabilityItems() {
      const byKey = new Map<string, Array<Record<string, unknown>>>();
      for (const item of emulator.control.items(lists.availability)) {
        const key = String(item.fields.Title);
        byKey.set(key, [...(byKey.get(key) ?? []), item.fields]);
      }
      return byKey;
    },
    bookingsRefreshCalls() {
      return emulator.control
        .requests({ method: 'GET', path: `*/lists/${lists.bookings.id}/items/delta` })
        .filter((r) => !/skiptoken/i.test(r.query)).length;
    },
    availabilityCreates() {
      const posts = emulator.control.requests({ method: 'POST', path: itemsPath(lists.availability.id) });
      return { attempts: posts.length, created: posts.filter((r) => r.status === 201).length };
    },
    availabilityItemCount() {
      return emulator.control.items(lists.availability).length;
    },
    async configure(staff) {
      const response = await staff.request('POST', '/api/sharepoint/settings', settings);
      if (response.status !== 200)
        throw new Error(`saving SharePoint settings: ${response.status} ${JSON.stringify(response.body)}`);
    },
    close: () => emulator.close(),
  };
}
