import { describe, expect, it } from 'vitest';
import { collatorCompare, matchesSearch, searchKey } from './collate';

describe('collatorCompare', () => {
  it('orders as localeCompare does with the same settings', () => {
    const words = ['Zoë', 'zoe', 'item 10', 'Item 9', 'élan', 'Elan', 'apple', 'Äpfel'];
    const options: Intl.CollatorOptions = { sensitivity: 'base', numeric: true };
    const compare = collatorCompare('en', options);
    const expected = [...words].sort((a, b) => a.localeCompare(b, 'en', options));
    expect([...words].sort(compare)).toEqual(expected);
  });

  it('treats case and accents as equal under base sensitivity', () => {
    const compare = collatorCompare(undefined, { sensitivity: 'base' });
    expect(compare('Élan', 'elan')).toBe(0);
    expect(compare('apple', 'Banana')).toBeLessThan(0);
  });
});

describe('searchKey and matchesSearch', () => {
  it('compare without accents or case', () => {
    expect(searchKey('Ñandú Ortega')).toBe('nandu ortega');
    expect(searchKey('Zoë')).toBe('zoe');
    expect(matchesSearch('nandu', ['Ñandú Ortega'])).toBe(true);
    expect(matchesSearch('ñandú', [null, 'nandu@example.org'])).toBe(true);
    expect(matchesSearch('bea', ['Amy', undefined])).toBe(false);
    expect(matchesSearch('  ', ['anything'])).toBe(true);
  });
});
