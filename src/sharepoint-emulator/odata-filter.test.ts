import { describe, expect, it } from 'vitest';
import {
  evaluateFilter,
  FilterError,
  type OperandValue,
  parseFilter,
  referencedFields,
} from './odata-filter';
import type { ColumnType, FieldValue } from './types';

const types: Record<string, ColumnType> = {
  Title: 'text',
  Qty: 'number',
  Day: 'dateOnly',
  Active: 'boolean',
};

function matches(filter: string, fields: Record<string, FieldValue>, id = 1): boolean {
  return evaluateFilter(parseFilter(filter), (operand): OperandValue => {
    if (operand.kind === 'id') return { type: 'id', value: id };
    return { type: types[operand.name] ?? 'text', value: fields[operand.name] };
  });
}

describe('parseFilter', () => {
  it('parses comparisons, and/or precedence and parentheses', () => {
    expect(parseFilter("fields/A eq 'x' or fields/B eq 1 and fields/C ne 2")).toEqual({
      kind: 'or',
      left: { kind: 'cmp', op: 'eq', operand: { kind: 'field', name: 'A' }, value: 'x' },
      right: {
        kind: 'and',
        left: { kind: 'cmp', op: 'eq', operand: { kind: 'field', name: 'B' }, value: 1 },
        right: { kind: 'cmp', op: 'ne', operand: { kind: 'field', name: 'C' }, value: 2 },
      },
    });
    expect(referencedFields(parseFilter("(fields/A eq 'x' or fields/B eq 1) and id gt 3"))).toEqual([
      'A',
      'B',
    ]);
  });

  it("unescapes '' inside strings and reads numbers, booleans and null", () => {
    expect(parseFilter("fields/T eq 'O''Neill ''q'''")).toMatchObject({ value: "O'Neill 'q'" });
    expect(parseFilter('fields/N ge -1.5')).toMatchObject({ op: 'ge', value: -1.5 });
    expect(parseFilter('fields/B eq true')).toMatchObject({ value: true });
    expect(parseFilter('fields/B eq null')).toMatchObject({ value: null });
  });

  it.each([
    "fields/T eq 'open",
    "Title eq 'x'",
    'fields/T eq',
    "fields/T like 'x'",
    "fields/T eq 'x' and",
    "(fields/T eq 'x'",
    "fields/T eq 'x')",
    '',
    'fields/T eq 12abc',
  ])('rejects %j', (text) => {
    expect(() => parseFilter(text)).toThrow(FilterError);
  });
});

describe('evaluateFilter', () => {
  it('compares text case-insensitively and numbers numerically', () => {
    expect(matches("fields/Title eq 'HELLO'", { Title: 'hello' })).toBe(true);
    expect(matches('fields/Qty lt 10', { Qty: 9 })).toBe(true);
    expect(matches('fields/Qty lt 10', { Qty: 100 })).toBe(false);
    expect(matches("fields/Qty eq '100'", { Qty: 100 })).toBe(true);
  });

  it('compares dates as instants', () => {
    const fields = { Day: '2026-06-08T23:00:00Z' };
    expect(
      matches("fields/Day ge '2026-06-08T22:00:00Z' and fields/Day lt '2026-06-09T00:00:00Z'", fields),
    ).toBe(true);
    expect(matches("fields/Day gt '2026-06-08T23:00:00.000Z'", fields)).toBe(false);
  });

  it('treats a missing column as null', () => {
    expect(matches("fields/Title eq 'x'", {})).toBe(false);
    expect(matches("fields/Title ne 'x'", {})).toBe(true);
    expect(matches('fields/Title eq null', {})).toBe(true);
    expect(matches('fields/Title lt 5', {})).toBe(false);
  });

  it('supports startswith, not and id', () => {
    expect(matches("startswith(fields/Title,'10')", { Title: '1001|2026' })).toBe(true);
    expect(matches("not (fields/Title eq 'a')", { Title: 'b' })).toBe(true);
    expect(matches('id ge 5 and id le 6', {}, 5)).toBe(true);
  });
});
