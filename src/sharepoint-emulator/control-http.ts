/**
 * `/__emulator/*`: the control plane over HTTP, for the standalone emulator and for tests that
 * run it out of process. Not part of the Graph protocol, so it needs no token and is never faulted.
 */
import type { DeltaQuirks } from './delta';
import { GraphError } from './errors';
import type { FaultRule, LatencyOptions, OutageOptions } from './faults';
import type { PortalSiteOptions } from './fixtures';
import type { PagingOptions } from './paging';
import type { EmulatorServer } from './server';
import type { CreateListInput } from './store';
import type { FieldInput } from './types';

export interface ControlReply {
  status: number;
  body?: unknown;
}

function parseJson(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) return {};
  const value: unknown = JSON.parse(raw.toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('Body must be a JSON object');
  return value as Record<string, unknown>;
}

export async function handleControlRequest(
  emu: EmulatorServer,
  method: string,
  url: URL,
  raw: Buffer,
): Promise<ControlReply> {
  const c = emu.control;
  const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
  try {
    const body = parseJson(raw);
    switch (route) {
      case 'GET /__emulator/info':
        return {
          status: 200,
          body: { graphBaseUrl: emu.graphBaseUrl, authorityHost: emu.authorityHost, ...c.credentials },
        };
      case 'POST /__emulator/reset':
        await c.reset();
        return { status: 204 };
      case 'POST /__emulator/seed':
        return { status: 201, body: c.seedPortalSite(body as PortalSiteOptions) };
      case 'POST /__emulator/lists': {
        // a list with columns of the caller's choosing, e.g. names the portal cannot match by itself
        const { siteId, items, ...list } = body as unknown as CreateListInput & {
          siteId: string;
          items?: FieldInput[];
        };
        const info = c.createList(siteId, list);
        for (const fields of items ?? []) c.addItem(info, fields);
        return { status: 201, body: info };
      }
      case 'GET /__emulator/sites':
        return {
          status: 200,
          body: c.sites().map((site) => ({ ...site, lists: c.lists(site.id) })),
        };
      case 'GET /__emulator/faults':
        return { status: 200, body: c.faults() };
      case 'POST /__emulator/faults':
        return { status: 201, body: { id: c.addFault(body as unknown as FaultRule) } };
      case 'DELETE /__emulator/faults':
        c.clearFaults();
        return { status: 204 };
      case 'PUT /__emulator/latency':
        c.setLatency(body as unknown as LatencyOptions);
        return { status: 204 };
      case 'DELETE /__emulator/latency':
        c.setLatency(null);
        return { status: 204 };
      case 'PUT /__emulator/outage':
        // Over HTTP a refused connection would also cut off this endpoint, with no way back.
        if ((body as OutageOptions).mode === 'refuse') {
          return { status: 400, body: { message: "mode 'refuse' is only available in-process" } };
        }
        await c.setOutage(body as OutageOptions);
        return { status: 204 };
      case 'DELETE /__emulator/outage':
        await c.setOutage(false);
        return { status: 204 };
      case 'PUT /__emulator/paging':
        return { status: 200, body: c.setPaging(body as PagingOptions) };
      case 'POST /__emulator/certificates': {
        const { clientId, certificate } = body as { clientId?: string; certificate?: string };
        c.addClientCertificate(clientId ?? c.credentials.clientId, String(certificate ?? ''));
        return { status: 204 };
      }
      case 'POST /__emulator/tokens/expire':
        c.expireTokens();
        return { status: 204 };
      case 'POST /__emulator/delta/invalidate': {
        const { siteId, list } = body as { siteId?: string; list?: string };
        c.invalidateDeltaTokens(siteId && list ? { siteId, list } : undefined);
        return { status: 204 };
      }
      case 'PUT /__emulator/delta/quirks':
        c.setDeltaQuirks(body as DeltaQuirks);
        return { status: 204 };
      case 'POST /__emulator/clock':
        c.advanceClock(Number(body.advanceMs ?? 0));
        return { status: 200, body: { now: new Date(c.now()).toISOString() } };
      case 'GET /__emulator/requests':
        return {
          status: 200,
          body: c.requests({
            method: url.searchParams.get('method') ?? undefined,
            path: url.searchParams.get('path') ?? undefined,
          }),
        };
      case 'DELETE /__emulator/requests':
        c.clearRequests();
        return { status: 204 };
    }
    const items = /^(GET|POST) \/__emulator\/sites\/([^/]+)\/lists\/([^/]+)\/items$/.exec(route);
    if (items) {
      const ref = { siteId: decodeURIComponent(items[2]!), list: decodeURIComponent(items[3]!) };
      // POST: the body is the item's fields; it counts as a change by someone else (shows up in delta)
      if (items[1] === 'POST') return { status: 201, body: c.addItem(ref, body as FieldInput) };
      return { status: 200, body: c.items(ref) };
    }
    // A change the change feed never reports (a lost delta entry): PATCH with fields, DELETE to remove.
    const unrecorded =
      /^(PATCH|DELETE) \/__emulator\/sites\/([^/]+)\/lists\/([^/]+)\/items\/(\d+)\/unrecorded$/.exec(route);
    if (unrecorded) {
      const ref = { siteId: decodeURIComponent(unrecorded[2]!), list: decodeURIComponent(unrecorded[3]!) };
      if (unrecorded[1] === 'DELETE') {
        c.deleteItemUnrecorded(ref, unrecorded[4]!);
        return { status: 204 };
      }
      return { status: 200, body: c.updateItemUnrecorded(ref, unrecorded[4]!, body as FieldInput) };
    }
    const fault = /^DELETE \/__emulator\/faults\/(\d+)$/.exec(route);
    if (fault) {
      c.removeFault(Number(fault[1]));
      return { status: 204 };
    }
    return { status: 404, body: { message: `Unknown control route ${route}` } };
  } catch (err) {
    if (err instanceof GraphError) return { status: err.status, body: { message: err.message } };
    return { status: 400, body: { message: (err as Error).message } };
  }
}
