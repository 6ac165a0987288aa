import { createHash } from 'node:crypto';
import { Column, is, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
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
 * availability answer from 232 ms to 78 ms, compression included (ADR 6).
 *
 * Each row is written by concatenation, with each value encoded by its column's type: numbers and
 * booleans as they print, text through `to_json` (JSON escaping), everything else (dates: ISO
 * whatever the server's DateStyle) through `to_json` as well. That is about a
 * quarter quicker than `row_to_json` per row, which looks up every value's output function and
 * escapes every string. Keys listed in `plainText` skip the escaping: only columns whose check
 * constraints admit nothing JSON would escape (statuses, HH:MM times) may be listed.
 * `string_agg` joins the rows with a bare comma, in the order asked for.
 *
 * `fields` maps each answer key to a column (or expression: encoded with `to_json`), `from` is the
 * rest of the query (FROM … WHERE …), `orderBy` lists answer keys, ascending, NULLs last. The text
 * equals JSON.stringify of the same rows (tested per list, on both databases).
 */
export async function selectJsonArray(
  db: Queryable,
  fields: Record<string, SQLWrapper>,
  from: SQL,
  orderBy: string[],
  options: JsonRowOptions = {},
): Promise<JsonArrayText> {
  return readJsonArray(db, jsonArrayStatement(fields, from, orderBy, options));
}

/** The statement selectJsonArray runs: one row, its `body` the whole array. */
export function jsonArrayStatement(
  fields: Record<string, SQLWrapper>,
  from: SQL,
  orderBy: string[],
  options: JsonRowOptions = {},
): SQL {
  const { columns, row } = jsonRow(fields, options);
  for (const key of orderBy) {
    if (!(key in fields)) throw new Error(`jsonArrayStatement: bad order key ${key}`);
  }
  const order = sql.raw(orderBy.map((key) => `t."${key}"`).join(', '));
  return sql`select '[' || coalesce(string_agg(${row}, ',' order by ${order}), '') || ']' as body
      from (select ${columns} ${from}) t`;
}

/** Runs a statement whose one row's `body` is a JSON array's text (an empty answer is `[]`). */
export async function readJsonArray(db: Queryable, statement: SQL): Promise<JsonArrayText> {
  // Both drivers (PGlite and node-postgres) answer execute() with `rows`.
  const result = (await db.execute(statement)) as unknown as { rows: Array<{ body: string }> };
  return (result.rows[0]?.body ?? '[]') as JsonArrayText;
}

/**
 * The format of a list's text, for answers kept in the database (ADR 56): a hash of the SQL text
 * of the statements that build it. Values are parameters and not part of that text, so every range
 * of a list built the same way has the same format, and any change to what the statements select,
 * filter, join or order by is a new one.
 */
export function statementsFormat(...statements: SQL[]): string {
  const hash = createHash('sha256');
  for (const statement of statements) hash.update(DIALECT.sqlToQuery(statement).sql).update('\u0000');
  return hash.digest('base64url').slice(0, 16);
}

export interface JsonRowOptions {
  /** answer keys whose values JSON never escapes (see selectJsonArray) */
  plainText?: string[];
}

export interface JsonRow {
  /** the select list of the subquery `t` the row reads: each field as its answer key */
  columns: SQL;
  /** one row's JSON text, an expression over `t` */
  row: SQL;
  /**
   * The row format, as a short hash of the columns and the expression: a JSON text kept in the
   * database is only used by code that writes rows the same way (ADR 44).
   */
  shape: string;
}

/** The pieces selectJsonArray is made of, for a list assembled some other way (ADR 44). */
export function jsonRow(fields: Record<string, SQLWrapper>, options: JsonRowOptions = {}): JsonRow {
  const keys = Object.keys(fields);
  const plainText = new Set(options.plainText ?? []);
  // keys are written into the SQL text: only plain names, which the code itself supplies
  for (const key of [...keys, ...plainText]) {
    if (!PLAIN_KEY.test(key) || !keys.includes(key)) throw new Error(`selectJsonArray: bad key ${key}`);
  }
  const columns = sql.join(
    keys.map((key) => sql`${fields[key]!} as ${sql.raw(`"${key}"`)}`),
    sql`, `,
  );
  // One concat() per row: a chain of || copies the growing row text once per piece.
  const parts: Array<string | SQL> = [];
  keys.forEach((key, i) => {
    parts.push(`${i === 0 ? '{' : ','}"${key}":`);
    parts.push(...jsonValue(sql.raw(`t."${key}"`), fields[key]!, plainText.has(key)));
  });
  parts.push('}');
  const row = sql`concat(${sql.join(mergeLiterals(parts), sql`, `)})`;
  // what each key reads and how it is written; a change to either is a new shape
  const text = DIALECT.sqlToQuery(sql`${columns} ${row}`).sql;
  return { columns, row, shape: createHash('sha256').update(text).digest('base64url').slice(0, 16) };
}

const DIALECT = new PgDialect();

/**
 * The JSON text of one value, `null` included, chosen by the type of the column it came from, as
 * concat() arguments: concat writes a number with its type's output function, and leaves out a NULL,
 * so a column that may be NULL is spelled out whole.
 */
function jsonValue(value: SQL, field: SQLWrapper, plainText: boolean): Array<string | SQL> {
  const column = is(field, Column) ? field : undefined;
  const notNull = column?.notNull ?? false;
  switch (column?.columnType) {
    case 'PgSerial':
    case 'PgInteger':
    case 'PgSmallInt':
    case 'PgBigSerial53':
    case 'PgBigInt53':
      return [notNull ? value : sql`coalesce(${value}::text, 'null')`];
    case 'PgBoolean':
      return [sql`case when ${value} then 'true' when not ${value} then 'false' else 'null' end`];
    case 'PgTimestamp': {
      // what Date#toISOString writes (the drivers read timestamps into a Date): UTC, milliseconds
      const iso = sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      return notNull ? ['"', iso, '"'] : [sql`coalesce('"' || ${iso} || '"', 'null')`];
    }
    case 'PgText':
      if (plainText) return notNull ? ['"', value, '"'] : [sql`coalesce('"' || ${value} || '"', 'null')`];
      return [notNull ? sql`to_json(${value})` : sql`coalesce(to_json(${value})::text, 'null')`];
    default:
      return [notNull ? sql`to_json(${value})` : sql`coalesce(to_json(${value})::text, 'null')`];
  }
}

/** Neighbouring literal pieces joined into one SQL string literal (they hold no single quote). */
function mergeLiterals(parts: Array<string | SQL>): SQL[] {
  const merged: Array<string | SQL> = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged.map((part) => (typeof part === 'string' ? sql.raw(`'${part}'`) : part));
}
