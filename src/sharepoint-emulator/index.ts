import type { EmulatorControl } from './control';
import { type EmulatorOptions, EmulatorServer } from './server';

export interface RunningEmulator {
  /** e.g. `http://127.0.0.1:5050/v1.0`: the portal's GRAPH_BASE_URL. */
  graphBaseUrl: string;
  /** e.g. `http://127.0.0.1:5050`: the portal's AUTHORITY_HOST (token at `/{tenantId}/oauth2/v2.0/token`). */
  authorityHost: string;
  port: number;
  close(): Promise<void>;
  control: EmulatorControl;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const server = new EmulatorServer(options);
  await server.listen();
  return {
    graphBaseUrl: server.graphBaseUrl,
    authorityHost: server.authorityHost,
    port: server.port,
    close: () => server.close(),
    control: server.control,
  };
}

export type { ClientCredential, UserCredential } from './auth';
export { DEFAULT_CLIENT, DEFAULT_TENANT_ID, DEFAULT_USER, GRAPH_SCOPE } from './auth';
export type { EmulatorControl, EmulatorCredentials, FailNextOptions } from './control';
export type { DeltaQuirks } from './delta';
export type {
  ActiveFault,
  FaultAction,
  FaultRule,
  LatencyOptions,
  OutageMode,
  OutageOptions,
  RetryAfter,
} from './faults';
export type {
  BookingFields,
  BookingGenOptions,
  FacilitatorFixture,
  ListKey,
  PortalSite,
  PortalSiteOptions,
  SchoolFixture,
  Term,
} from './fixtures';
export {
  AVAILABILITY_STATUSES,
  BOOKING_STATUSES,
  DEFAULT_INDEXED,
  DEFAULT_LIST_NAMES,
  DEFAULT_TERM,
  defaultColumns,
  generateBookings,
  generateFacilitators,
  generateSchools,
  portalSettingsFor,
} from './fixtures';
export type { PagingOptions, ResolvedPaging } from './paging';
export type { LoggedRequest, RequestQuery } from './request-log';
export type { EmulatorOptions } from './server';
export type { CreateListInput, CreateSiteInput } from './store';
export type {
  ColumnDef,
  ColumnType,
  FieldInput,
  FieldValue,
  ItemSnapshot,
  ListInfo,
  ListRef,
  SiteInfo,
} from './types';
export { localDay, siteMidnightUtc } from './values';
