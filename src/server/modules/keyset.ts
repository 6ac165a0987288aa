import { type SQL, sql } from 'drizzle-orm';
import { badRequest } from '../errors';

/** One column of a list's order: the expression and which way it runs. */
export interface OrderColumn {
  expression: SQL;
  descending: boolean;
}

export type CursorValue = string | number;

/** A cursor names the last row of a page by its values in the list's order. */
export function encodeKeyset(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values a cursor holds, checked against the order's length; 400 when it is not one a list gave. */
export function decodeKeyset(cursor: string, length: number): CursorValue[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(values) &&
      values.length === length &&
      values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
    ) {
      return values as CursorValue[];
    }
  } catch {
    // answered below
  }
  throw badRequest('The cursor is not one this list gave', { cursor: ['Not a cursor from this list'] });
}

/** `order by` for the columns. */
export function orderBy(columns: readonly OrderColumn[]): SQL {
  return sql.join(
    columns.map((c) => (c.descending ? sql`${c.expression} desc` : sql`${c.expression} asc`)),
    sql`, `,
  );
}

/**
 * The rows after the cursor's in the order. When every column runs the same way it is one row
 * comparison, which an index on those columns answers by starting where the cursor points;
 * otherwise column by column.
 */
export function after(columns: readonly OrderColumn[], values: readonly CursorValue[]): SQL {
  const first = columns[0]!;
  if (columns.every((c) => c.descending === first.descending)) {
    const left = sql.join(
      columns.map((c) => c.expression),
      sql`, `,
    );
    const right = sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
    return first.descending ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
  }
  const alternatives = columns.map((column, i) => {
    const equal = columns.slice(0, i).map((c, j) => sql`${c.expression} = ${values[j]}`);
    const beyond = column.descending
      ? sql`${column.expression} < ${values[i]}`
      : sql`${column.expression} > ${values[i]}`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql`(${sql.join(alternatives, sql` or `)})`;
}
