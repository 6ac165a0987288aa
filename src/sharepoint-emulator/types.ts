/** Column kinds the emulator understands; each maps to one Graph columnDefinition type facet. */
export type ColumnType = 'text' | 'note' | 'number' | 'choice' | 'dateTime' | 'dateOnly' | 'boolean';

export interface ColumnDef {
  /** Internal (API) name: the key used in `fields`. */
  name: string;
  displayName?: string;
  type: ColumnType;
  indexed?: boolean;
  required?: boolean;
  enforceUniqueValues?: boolean;
  /** Allowed values for `choice` columns. */
  choices?: string[];
}

export type FieldValue = string | number | boolean;

/** Values accepted when writing; `null`, `undefined` and `''` clear a column. */
export type FieldInput = Record<string, FieldValue | null | undefined>;

export interface SiteInfo {
  id: string;
  hostname: string;
  /** Server-relative path, e.g. `/sites/ArtsTeam`. */
  path: string;
  displayName: string;
  webUrl: string;
  timeZone: string;
}

export interface ListInfo {
  id: string;
  siteId: string;
  name: string;
  displayName: string;
  columns: ColumnDef[];
}

/** A stored item as tests see it: values in their stored form, empty columns absent. */
export interface ItemSnapshot {
  id: string;
  eTag: string;
  version: number;
  createdDateTime: string;
  lastModifiedDateTime: string;
  fields: Record<string, FieldValue>;
}

/** Identifies a list: by object, or by site id plus list id or display name. */
export type ListRef = ListInfo | { siteId: string; list: string };
