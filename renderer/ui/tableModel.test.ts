import { describe, expect, it } from 'vitest';
import { compareSortValues, nextSort, pageCountOf, pageOf, sortRows } from './tableModel.ts';

describe('table model', () => {
  it('compares Spanish text ignoring case and accents, and numbers inside text naturally', () => {
    expect(compareSortValues('álamo', 'Alamo')).toBe(0);
    expect(compareSortValues('Robot 2', 'Robot 10')).toBeLessThan(0);
  });

  it('compares dates by time', () => {
    expect(compareSortValues(new Date('2024-01-02'), new Date('2024-01-01'))).toBeGreaterThan(0);
  });

  it('keeps blanks last and ties in their original order', () => {
    const rows = [
      { name: 'b', n: 1 },
      { name: 'blank', n: null },
      { name: 'a', n: 1 },
      { name: 'c', n: 0 },
    ];
    expect(sortRows(rows, (row) => row.n, 'descending').map((row) => row.name)).toEqual(['b', 'a', 'c', 'blank']);
    expect(sortRows(rows, (row) => row.n, 'ascending').map((row) => row.name)).toEqual(['c', 'b', 'a', 'blank']);
  });

  it('counts at least one page and slices pages', () => {
    expect(pageCountOf(0, 12)).toBe(1);
    expect(pageCountOf(24, 12)).toBe(2);
    expect(pageCountOf(25, 12)).toBe(3);
    expect(pageOf([1, 2, 3, 4, 5], 1, 2)).toEqual([3, 4]);
  });

  it('flips the direction on the same column and starts ascending on another', () => {
    expect(nextSort(null, 'date')).toEqual({ key: 'date', direction: 'ascending' });
    expect(nextSort({ key: 'date', direction: 'ascending' }, 'date').direction).toBe('descending');
    expect(nextSort({ key: 'date', direction: 'descending' }, 'cost')).toEqual({ key: 'cost', direction: 'ascending' });
  });
});
