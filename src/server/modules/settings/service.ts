import type { SettingsBody, SettingsResponse } from '../../../shared/schemas/settings';
import type { Db } from '../../db/client';
import { storeSettings } from '../../sharepoint/settings';
import { type ChangeBy, recordChanges } from '../history/record';

/**
 * Save the SharePoint settings (sharepoint/settings.ts keeps them). `by`: who saved them, for the
 * history (routes pass it; setup scripts and fixtures do not and are not recorded).
 */
export function saveSettings(
  db: Db,
  appSecret: string,
  input: SettingsBody,
  by?: ChangeBy,
): Promise<SettingsResponse> {
  if (!by) return storeSettings(db, appSecret, input);
  return storeSettings(db, appSecret, input, (tx, change) =>
    recordChanges(tx, [
      {
        entity: 'settings',
        action: change.before ? 'update' : 'create',
        subjectUserId: null,
        actorId: by.actorId,
        via: by.via,
        before: change.before,
        after: change.after,
      },
    ]),
  );
}
