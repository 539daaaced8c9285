import { describe, expect, it } from 'vitest';
import { goalVerdict, median, percentOf, percentile } from './stats.ts';

describe('bench figures', () => {
  it('median of odd and even counts, unsorted input left as it was', () => {
    const timings = [30, 10, 20];
    expect(median(timings)).toBe(20);
    expect(timings).toEqual([30, 10, 20]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNull();
  });

  it('percent of a whole, and no division by nothing', () => {
    expect(percentOf(7_540, 12_000)).toBe('63 %');
    expect(percentOf(1, 0)).toBe('?');
  });

  it('names every missed part of a goal', () => {
    expect(goalVerdict([{ ok: true, what: 'p99 ≤ 5 ms' }])).toBe('met');
    expect(goalVerdict([{ ok: false, what: 'p99 ≤ 5 ms' }, { ok: true, what: 'x' }, { ok: false, what: '≥ 60 % of hello-world' }])).toBe('missed (p99 ≤ 5 ms, ≥ 60 % of hello-world)');
  });

  it('nearest-rank percentiles: p99 of 100 timings is the 99th smallest, of 10 the largest', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([5, 1, 9, 3, 7, 2, 8, 4, 6, 10], 99)).toBe(10);
    expect(percentile([], 50)).toBeNull();
  });
});
