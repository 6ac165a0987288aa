import type { RecordImportedAccounts } from '../../sharepoint/facilitators-import';
import { recordChanges } from '../history/record';
import { accountValues } from '../users/service';

/**
 * The history port of the facilitators import: every account it creates or changes is recorded via
 * 'sharepoint', with `actorId` the staff member who asked (null: nobody signed in did).
 */
export function recordImportedAccounts(actorId: number | null): RecordImportedAccounts {
  return (tx, changes) =>
    recordChanges(
      tx,
      changes.map((change) => ({
        entity: 'account' as const,
        action: change.action,
        subjectUserId: change.after.id,
        actorId,
        via: 'sharepoint' as const,
        before: change.before ? accountValues(change.before) : null,
        after: accountValues(change.after),
      })),
    );
}
