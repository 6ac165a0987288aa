/**
 * The SharePoint settings as the adapter uses them, and the ports the settings page tries them
 * through. plugins/routes.ts hands the connector's tester and checker to the settings routes; the
 * defaults below answer where none is given.
 */

import type { ColumnCheckResult, ColumnMapping } from '../../shared/schemas/sharepoint-columns';

/** SharePoint settings with the secrets decrypted: server-side only, never sent to a browser. */
export interface ResolvedSharePointSettings {
  siteUrl: string;
  availabilityListName: string;
  bookingsListName: string;
  facilitatorListName: string;
  schoolsListName: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** PEM certificate and its private key for app-only sign-in (ADR 0017); '' when none */
  clientCertificate: string;
  clientCertificateKey: string;
  username: string;
  password: string;
  /** staff's corrections to the automatic column matching */
  columnMapping: ColumnMapping;
}

export interface ConnectionResult {
  success: boolean;
  message: string;
}

/** Tries the settings against SharePoint. It may throw; the caller turns a throw into a failure. */
export type ConnectionTester = (settings: ResolvedSharePointSettings) => Promise<ConnectionResult>;

export const CONNECTOR_UNAVAILABLE_MESSAGE =
  'Could not connect to SharePoint: the SharePoint connector is not available yet.';

/** The tester used until the SharePoint connector provides one. */
export const unavailableConnectionTester: ConnectionTester = async () => ({
  success: false,
  message: CONNECTOR_UNAVAILABLE_MESSAGE,
});

/** Reads the lists' columns with the typed settings and matches every portal field. */
export type ColumnChecker = (settings: ResolvedSharePointSettings) => Promise<ColumnCheckResult>;

export const unavailableColumnChecker: ColumnChecker = async () => ({
  reached: false,
  message: CONNECTOR_UNAVAILABLE_MESSAGE,
  lists: [],
});
