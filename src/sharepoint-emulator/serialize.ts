import { isoSeconds } from './clock';
import { formatETag, type StoredItem, type StoredList } from './store';
import type { ColumnDef, SiteInfo } from './types';

export interface ExpandOptions {
  /** Whether `fields` is expanded at all. */
  fields: boolean;
  /** `fields($select=A,B)`: only these columns (plus id). */
  fieldSelect?: string[];
  /** Top-level `$select` on listItem properties. */
  select?: string[];
}

/** The identity Graph reports for writes made by the emulator's app or its seed data. */
const SYSTEM_USER = {
  user: {
    displayName: 'SharePoint App',
    email: 'app@emulator.local',
    id: '00000000-0000-0000-0000-000000000007',
  },
};

export function serializeFields(item: StoredItem, select?: string[]): Record<string, unknown> {
  const eTag = formatETag(item);
  const all: Record<string, unknown> = {
    '@odata.etag': eTag,
    id: String(item.id),
    ...Object.fromEntries(item.fields),
    // Real responses carry many system columns; a few are included so clients learn to ignore extras.
    Created: isoSeconds(item.created),
    Modified: isoSeconds(item.modified),
    ContentType: 'Item',
    AuthorLookupId: '7',
    EditorLookupId: '7',
    _UIVersionString: `${item.version}.0`,
    Attachments: false,
  };
  if (!select) return all;
  const out: Record<string, unknown> = { '@odata.etag': eTag, id: String(item.id) };
  for (const name of select) if (name in all) out[name] = all[name];
  return out;
}

export function serializeItem(
  site: SiteInfo,
  list: StoredList,
  item: StoredItem,
  expand: ExpandOptions,
): Record<string, unknown> {
  const eTag = formatETag(item);
  const full: Record<string, unknown> = {
    '@odata.etag': eTag,
    id: String(item.id),
    eTag,
    createdDateTime: isoSeconds(item.created),
    lastModifiedDateTime: isoSeconds(item.modified),
    webUrl: `${site.webUrl}/Lists/${encodeURIComponent(list.info.name)}/${item.id}_.000`,
    createdBy: SYSTEM_USER,
    lastModifiedBy: SYSTEM_USER,
    parentReference: { id: list.info.id, siteId: site.id },
    contentType: { id: '0x0100', name: 'Item' },
  };
  let out = full;
  if (expand.select) {
    out = {};
    for (const name of expand.select) if (name in full) out[name] = full[name];
  }
  if (expand.fields) out.fields = serializeFields(item, expand.fieldSelect);
  return out;
}

export function serializeColumn(col: ColumnDef, readOnly = false): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: columnId(col.name),
    name: col.name,
    displayName: col.displayName ?? col.name,
    description: '',
    indexed: col.indexed ?? false,
    required: col.required ?? false,
    enforceUniqueValues: col.enforceUniqueValues ?? false,
    hidden: false,
    readOnly,
    columnGroup: 'Custom Columns',
  };
  switch (col.type) {
    case 'text':
      base.text = { allowMultipleLines: false, maxLength: 255 };
      break;
    case 'note':
      base.text = { allowMultipleLines: true, linesForEditing: 6, textType: 'plain' };
      break;
    case 'number':
      base.number = { decimalPlaces: 'automatic', displayAs: 'number' };
      break;
    case 'boolean':
      base.boolean = {};
      break;
    case 'choice':
      base.choice = { allowTextEntry: false, choices: col.choices ?? [], displayAs: 'dropDownMenu' };
      break;
    case 'dateTime':
      base.dateTime = { displayAs: 'default', format: 'dateTime' };
      break;
    case 'dateOnly':
      base.dateTime = { displayAs: 'default', format: 'dateOnly' };
      break;
  }
  return base;
}

/** Stable GUID-shaped id derived from the name, so repeated reads agree. */
function columnId(name: string): string {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const hex = h.toString(16).padStart(8, '0');
  return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-8${hex.slice(4, 7)}-${hex}${hex.slice(0, 4)}`;
}
