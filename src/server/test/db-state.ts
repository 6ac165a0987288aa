/**
 * The whole database as text, table by table, for suites that prove a refused request changed
 * nothing: dump before, dump after, compare. Every table the app writes is listed; a new table
 * belongs here too. Left out: list_versions, facilitator_areas and request_limits, counters kept by
 * the database's triggers (which follow the tables here as they are put back) and by the request
 * budgets that every request (refused ones included) may move.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export const TABLES = [
  ['users', 'id'],
  ['availability', 'id'],
  ['bookings', 'id'],
  ['staff_notes', 'id'],
  ['sharepoint_settings', 'id'],
  ['sync_outbox', 'id'],
  ['sharepoint_availability_items', 'item_id'],
  ['sessions', 'id'],
  ['scheduler_state', 'name'],
  ['login_throttle', 'key'],
  ['reminder_settings', 'id'],
  ['reminder_sends', 'id'],
  ['calendar_feeds', 'user_id'],
  ['change_history', 'id'],
  ['microsoft_identities', 'id'],
  ['microsoft_invitations', 'token_hash'],
  ['microsoft_sign_in_requests', 'state_hash'],
  ['microsoft_sign_in_settings', 'id'],
  ['safeguarding_policy', 'id'],
  ['safeguarding_policy_versions', 'effective_from'],
  ['safeguarding_records', 'user_id'],
  ['safeguarding_reminder_sends', 'id'],
  ['offers', 'id'],
  ['booking_outbox', 'id'],
  ['password_links', 'token_hash'],
  ['passkeys', 'id'],
  ['webauthn_challenges', 'challenge_hash'],
  ['sign_in_policy', 'id'],
  ['push_subscriptions', 'id'],
  ['push_outbox', 'id'],
  ['notification_preferences', 'kind'],
  ['notification_quiet_hours', 'user_id'],
  ['certificate_views', 'id'],
  ['safeguarding_record_versions', 'id'],
  ['facilitator_photos', 'user_id'],
  ['assurance_settings', 'id'],
  ['retention_settings', 'id'],
  ['retention_runs', 'id'],
  ['erasures', 'id'],
  ['availability_removals', 'id'],
] as const;
export type TableName = (typeof TABLES)[number][0];
/** Each table's rows as JSON text, in key order. */
export type TableDump = Record<TableName, string>;

/** One query for every table, so the dump is one consistent snapshot. */
export async function dumpTables(db: Db): Promise<TableDump> {
  const columns = TABLES.map(
    ([name, key]) =>
      sql`(select coalesce(json_agg(x order by x.${sql.identifier(key)}), '[]'::json)::text from ${sql.identifier(name)} x) as ${sql.identifier(name)}`,
  );
  const result = await db.execute(sql`select ${sql.join(columns, sql`, `)}`);
  return (result as unknown as { rows: TableDump[] }).rows[0]!;
}
