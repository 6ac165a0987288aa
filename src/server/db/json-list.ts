import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Queryable } from './client';

/**
 * A JSON array already serialised, ready to send as the body of an `application/json` answer.
 * Fastify sends a string with a JSON content type as it is, without its serializer.
 */
export type JsonArrayText = string & { readonly __jsonArray: unique symbol };

const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Big lists (a month of the staff grid is ~18,000 availability rows) are built into one JSON text by
 * PostgreSQL itself: one value crosses the driver instead of a row object per day, and nothing is
 * parsed into JavaScript objects only to be stringified again. On PGlite this took the month grid's
 * availability answer from 232 ms to 78 ms, compression included (bench/staff-grid.ts).
 * `row_to_json` of whole rows is both quicker than `json_build_object` per row and compact (no
 * spaces), and `string_agg` joins the rows with a bare comma where `json_agg` adds a line break.
 *
 * `fields` maps each answer key to a column expression, `from` is the rest of the query (FROM …
 * WHERE …), `orderBy` lists answer keys, ascending, NULLs last. The text equals JSON.stringify of the
 * same rows (tested per list).
 */
export async function selectJsonArray(
  db: Queryable,
  fields: Record<string, SQLWrapper>,
  from: SQL,
  orderBy: string[],
): Promise<JsonArrayText> {
  const keys = Object.keys(fields);
  // keys are written into the SQL text: only plain names, which the code itself supplies
  for (const key of [...keys, ...orderBy]) {
    if (!PLAIN_KEY.test(key) || !keys.includes(key)) throw new Error(`selectJsonArray: bad key ${key}`);
  }
  const columns = sql.join(
    keys.map((key) => sql`${fields[key]!} as ${sql.raw(`"${key}"`)}`),
    sql`, `,
  );
  const order = sql.raw(orderBy.map((key) => `t."${key}"`).join(', '));
  // Both drivers (PGlite and node-postgres) answer execute() with `rows`.
  const result = (await db.execute(
    sql`select '[' || coalesce(string_agg(row_to_json(t)::text, ',' order by ${order}), '') || ']' as body
        from (select ${columns} ${from}) t`,
  )) as unknown as { rows: Array<{ body: string }> };
  return (result.rows[0]?.body ?? '[]') as JsonArrayText;
}
