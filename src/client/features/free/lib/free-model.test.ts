import { describe, expect, it } from 'vitest';
import {
  EMPTY_SEARCH,
  searchFromAddress,
  searchProblems,
  searchQueryString,
  summaryLabel,
  timesLabel,
} from './free-model';

describe('the search in the page address', () => {
  it('round-trips, leaving out what was not chosen', () => {
    const state = {
      date: '2026-12-02',
      from: '09:00',
      to: '12:00',
      areas: ['North', 'South West'],
      everyone: true,
    };
    const query = searchQueryString(state);
    expect(query).toBe('date=2026-12-02&from=09%3A00&to=12%3A00&areas=North%2CSouth+West&include=all');
    expect(searchFromAddress(`?${query}`)).toEqual(state);
    expect(searchQueryString(EMPTY_SEARCH)).toBe('');
    expect(searchFromAddress('')).toEqual(EMPTY_SEARCH);
  });

  it('ignores a date it cannot read and tidies the areas', () => {
    expect(searchFromAddress('?date=soon&areas= North ,,north,South&include=yes')).toEqual({
      ...EMPTY_SEARCH,
      areas: ['North', 'South'],
    });
  });
});

describe('problems, by the server’s own rules', () => {
  it('needs both ends of a window, in order', () => {
    expect(searchProblems({ ...EMPTY_SEARCH, from: '09:00' })).toEqual({
      to: 'Give both "from" and "to" for a time window, or neither',
    });
    expect(searchProblems({ ...EMPTY_SEARCH, from: '12:00', to: '09:00' })).toEqual({
      to: '"to" must be later than "from"',
    });
    expect(searchProblems({ ...EMPTY_SEARCH, date: '2026-12-02', from: '09:00', to: '12:00' })).toEqual({});
    expect(searchProblems(EMPTY_SEARCH)).toEqual({});
  });
});

describe('labels', () => {
  it('says what the times are', () => {
    expect(timesLabel({ status: 'available', startTime: '09:00', endTime: '12:00' })).toBe(
      '9:00 AM – 12:00 PM',
    );
    expect(timesLabel({ status: 'limited', startTime: '13:00', endTime: '' })).toBe('From 1:00 PM');
    expect(timesLabel({ status: 'limited', startTime: '', endTime: '11:00' })).toBe('Until 11:00 AM');
    expect(timesLabel({ status: 'available', startTime: '', endTime: '' })).toBe('No times given');
    expect(timesLabel({ status: null, startTime: '', endTime: '' })).toBe('—');
  });

  it('summarises the answer', () => {
    expect(summaryLabel(3, '2026-12-02', '10:00', '12:00')).toBe(
      '3 free on Wednesday 2 December 2026, 10:00 AM – 12:00 PM',
    );
    expect(summaryLabel(0, '2026-12-02', null, null)).toBe('Nobody free on Wednesday 2 December 2026');
  });
});
