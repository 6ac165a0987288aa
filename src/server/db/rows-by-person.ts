import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from './client';

/** The data types whose JSON is the value drizzle gives for them: numbers, text, booleans, dates as text. */
const SAME_IN_JSON = new Set(['number', 'string', 'boolean']);
/** Column types among those whose JSON text differs from what drizzle gives. */
const NOT_AS_IN_JSON = new Set(['PgNumeric', 'PgTimestampString']);

/**
 * The rows of `db.select(columns).from(table).where(where)`, read as one JSON text per person
 * (`json_agg`, grouped by `person`) instead of one row per record. Each person's rows come in `order`;
 * the people come in no particular order, so callers group the rows by person (the staff grid does).
 *
 * PGlite decodes every field of every row in JavaScript, a text at a time; a page of the staff grid
 * is over a thousand rows of eight to sixteen fields, and that decoding was a fifth of the request's
 * processor time. One text per person is decoded once, by JSON.parse. Each row comes out as drizzle
 * gives it: the same keys and values (the grid's API tests compare them).
 *
 * Only for columns whose values JSON carries as drizzle gives them: numbers, text, booleans, and
 * dates kept as text. A timestamp (a Date in drizzle; as text, JSON writes it with a "T" where
 * drizzle has a space) or a numeric (text in drizzle, a number in JSON) is refused.
 */
export async function rowsByPerson<Row>(
  db: Queryable,
  columns: Record<keyof Row & string, PgColumn>,
  person: PgColumn,
  where: SQL | undefined,
  order: SQL,
): Promise<Row[]> {
  const entries = Object.entries(columns) as Array<[string, PgColumn]>;
  for (const [key, column] of entries) {
    if (!SAME_IN_JSON.has(column.dataType) || NOT_AS_IN_JSON.has(column.columnType)) {
      throw new Error(
        `rowsByPerson: ${key} is a ${column.dataType}, which JSON does not carry as drizzle does`,
      );
    }
  }
  const fields = sql.join(
    entries.map(([key, column]) => sql`${key}::text, ${column}`),
    sql`, `,
  );
  const groups = await db
    .select({ rows: sql<string>`json_agg(json_build_object(${fields}) order by ${order})::text` })
    .from(person.table)
    .where(where)
    .groupBy(person);
  return groups.flatMap((group) => JSON.parse(group.rows) as Row[]);
}
