import type { ChangeSource } from '@shared/schemas/history';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';

export type ChangeEntity = 'availability' | 'note' | 'account' | 'settings' | 'offer' | 'session';
export type ChangeAction = 'create' | 'update' | 'delete';

/**
 * One change as the history keeps it. `before`/`after` are plain values (the day, the note, the
 * account's public fields, the settings); never a password hash or a secret: record
 * `{ password: 'changed' }` / `{ clientSecret: 'changed' }` instead.
 */
export interface ChangeEntry {
  entity: ChangeEntity;
  action: ChangeAction;
  /** the facilitator (or account) the change is about; null for settings */
  subjectUserId: number | null;
  /** the day, for availability and notes */
  date?: string | null;
  /** who made it; null when nobody signed in did (a scheduled SharePoint refresh) */
  actorId: number | null;
  via: ChangeSource;
  before: object | null;
  after: object | null;
}

/** Who made a change and how, for services that record history on behalf of a route. */
export interface ChangeBy {
  actorId: number | null;
  via: ChangeSource;
}

/** Entries per statement: the rows travel as one JSON parameter, so this only bounds its size. */
const CHUNK = 2000;

/**
 * Append history rows. Call it inside the transaction of the change, after the change (so an account
 * created by it has a name to snapshot) and before a deletion (so the deleted account still has one).
 * One statement per chunk whatever the number of entries: the entries are a single jsonb parameter,
 * so a year-long bulk save costs one round trip, and the names as they are now are copied in from
 * `users` by the same statement.
 */
export async function recordChanges(db: Queryable, entries: ChangeEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const rows = entries.slice(i, i + CHUNK).map((e) => ({
      entity: e.entity,
      action: e.action,
      subjectUserId: e.subjectUserId,
      date: e.date ?? null,
      actorId: e.actorId,
      via: e.via,
      before: e.before,
      after: e.after,
    }));
    await db.execute(sql`
      insert into change_history
        (entity, action, subject_user_id, subject_name, date, actor_id, actor_name, via, before, after)
      select e.value->>'entity',
             e.value->>'action',
             (e.value->>'subjectUserId')::integer,
             coalesce(nullif(s.display_name, ''), s.username),
             (e.value->>'date')::date,
             (e.value->>'actorId')::integer,
             coalesce(nullif(a.display_name, ''), a.username),
             e.value->>'via',
             nullif(e.value->'before', 'null'::jsonb),
             nullif(e.value->'after', 'null'::jsonb)
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(value, n)
      left join users s on s.id = (e.value->>'subjectUserId')::integer
      left join users a on a.id = (e.value->>'actorId')::integer
      order by e.n`);
  }
}
