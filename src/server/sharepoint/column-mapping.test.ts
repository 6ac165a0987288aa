/** Matching portal fields to a list's columns: names as real tenants store them. */
import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../shared/schemas/sharepoint-columns';
import {
  type ColumnInfo,
  columnTypeOf,
  decodeInternalName,
  matchColumns,
  normaliseColumnName,
  unindexedFilterColumns,
} from './column-mapping';

function col(name: string, displayName: string, type: ColumnType = 'text', extra: Partial<ColumnInfo> = {}) {
  return { name, displayName, type, indexed: false, hidden: false, readOnly: false, ...extra };
}
const byField = (matches: ReturnType<typeof matchColumns>) => new Map(matches.map((m) => [m.field, m]));

describe('names', () => {
  it('decodes _xHHHH_ in either case and drops a code cut off by truncation', () => {
    expect(decodeInternalName('Session_x0020_Date')).toBe('Session Date');
    expect(decodeInternalName('Start_x003a_Time_x003A_x')).toBe('Start:Time:x');
    expect(decodeInternalName('Reason_x0020_for_x0020_not_x0020')).toBe('Reason for not');
    expect(decodeInternalName('Reason_x0020_for_x0020_not_x00')).toBe('Reason for not');
  });

  it('compares without case, spaces, punctuation or encodings', () => {
    expect(normaliseColumnName('Session_x0020_Date')).toBe('sessiondate');
    expect(normaliseColumnName('session date')).toBe('sessiondate');
    expect(normaliseColumnName('SessionDate')).toBe('sessiondate');
    expect(normaliseColumnName('E-mail')).toBe('email');
  });

  it('reads the type from Graph facets', () => {
    expect(columnTypeOf({ text: {} })).toBe('text');
    expect(columnTypeOf({ text: { allowMultipleLines: true } })).toBe('note');
    expect(columnTypeOf({ dateTime: { format: 'dateOnly' } })).toBe('dateOnly');
    expect(columnTypeOf({ dateTime: { format: 'dateTime' } })).toBe('dateTime');
    expect(columnTypeOf({ number: {} })).toBe('number');
    expect(columnTypeOf({ choice: { choices: [] } })).toBe('choice');
    expect(columnTypeOf({ personOrGroup: {} })).toBe('other');
  });
});

describe('matchColumns', () => {
  it('keeps the protocol names as they are', () => {
    const columns = [
      col('Title', 'Title'),
      col('FreelancerID', 'FreelancerID'),
      col('SessionDate', 'SessionDate', 'dateOnly'),
    ];
    const m = byField(matchColumns('bookings', columns));
    expect(m.get('date')).toMatchObject({ column: 'SessionDate', source: 'auto', problem: null });
    expect(m.get('freelancerId')).toMatchObject({ column: 'FreelancerID', problem: null });
  });

  it('matches encoded, modern-UI, truncated and display names', () => {
    const columns = [
      col('Title', 'Title'),
      col('Freelancer_x0020_ID', 'Freelancer ID', 'number'),
      col('field_3', 'Session Date', 'dateOnly'),
      col('StartTime', 'Start Time'),
      col('Notes_x0020_for_x0020_the_x0020_', 'Notes for the office team', 'note'),
    ];
    const b = byField(matchColumns('bookings', columns));
    expect(b.get('freelancerId')?.column).toBe('Freelancer_x0020_ID');
    expect(b.get('date')?.column).toBe('field_3');
    expect(b.get('startTime')?.column).toBe('StartTime');
    const a = byField(matchColumns('availability', columns));
    expect(a.get('notes')).toMatchObject({ column: 'Notes_x0020_for_x0020_the_x0020_', problem: null });
  });

  it('prefers a visible writable column and never gives one column to two fields', () => {
    const columns = [
      col('LinkTitle', 'Title', 'text', { readOnly: true }),
      col('Title', 'Title'),
      col('Hidden_x0020_Day', 'Day', 'text', { hidden: true }),
    ];
    const a = byField(matchColumns('availability', columns));
    expect(a.get('key')?.column).toBe('Title');
    expect(a.get('name')?.column).toBeNull();
    expect(a.get('day')).toMatchObject({ column: null, problem: 'missing' });
  });

  it('reports a required field without a column, and an unsuitable type', () => {
    const columns = [col('Title', 'Title'), col('Session_x0020_Date', 'Session Date', 'text')];
    const b = byField(matchColumns('bookings', columns));
    expect(b.get('freelancerId')).toMatchObject({ problem: 'missing', source: 'none' });
    expect(b.get('freelancerId')?.message).toContain('Freelancer ID: no column found');
    expect(b.get('date')).toMatchObject({ problem: 'wrong-type', column: 'Session_x0020_Date' });
    expect(b.get('date')?.message).toBe(
      'Session date: the column "Session Date" (Session_x0020_Date) is a text column; it needs a date column.',
    );
    // an optional field without a column is no problem
    expect(b.get('location')).toMatchObject({ column: null, problem: null });
  });

  it("staff's choice wins, '' means none, and a vanished column is reported, not guessed", () => {
    const columns = [
      col('Title', 'Title'),
      col('FreelancerID', 'FreelancerID'),
      col('When', 'When', 'dateOnly'),
      col('SessionDate', 'SessionDate', 'text'),
      col('Location', 'Location'),
    ];
    const b = byField(
      matchColumns('bookings', columns, { date: 'When', location: '', freelancerId: 'Gone' }),
    );
    expect(b.get('date')).toMatchObject({ column: 'When', source: 'staff', problem: null });
    expect(b.get('location')).toMatchObject({ column: null, source: 'staff', problem: null });
    expect(b.get('freelancerId')).toMatchObject({ column: null, source: 'staff', problem: 'unknown-column' });
  });

  it('asks for no index: the portal filters on no column (availability items come from the change feed)', () => {
    const columns = [col('Title', 'Title'), col('Day', 'Day')];
    const a = matchColumns('availability', columns);
    expect(unindexedFilterColumns('availability', a, columns)).toEqual([]);
  });
});
