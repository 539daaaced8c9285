import { describe, expect, it } from 'vitest';
import { calendarYears, repeatDays, selectRangeDay } from './calendar.ts';

describe('calendarYears', () => {
  it('runs from 1900 to the current Madrid year', () => {
    const years = calendarYears(new Date('2025-12-31T23:30:00Z')); // already 2026 in Madrid
    expect(years[0]).toBe(1900);
    expect(years.at(-1)).toBe(2026);
    expect(years).toHaveLength(127);
  });
});

describe('range selection', () => {
  it('starts, closes in either order, and restarts', () => {
    const first = selectRangeDay({ start: null, end: null }, '2025-06-10');
    expect(first).toEqual({ start: '2025-06-10', end: null });
    expect(selectRangeDay(first, '2025-06-03')).toEqual({ start: '2025-06-03', end: '2025-06-10' });
    const closed = selectRangeDay(first, '2025-06-12');
    expect(closed).toEqual({ start: '2025-06-10', end: '2025-06-12' });
    expect(selectRangeDay(closed, '2025-07-01')).toEqual({ start: '2025-07-01', end: null });
  });
});

describe('repeatDays', () => {
  it('marks every third day from the start within the view', () => {
    const start = new Date('2025-06-02T07:00:00Z'); // 09:00 Madrid, 2 June
    expect([...repeatDays(start, 3, 'days', '2025-06-01', '2025-06-14')]).toEqual([
      '2025-06-02', '2025-06-05', '2025-06-08', '2025-06-11', '2025-06-14',
    ]);
  });

  it('marks each day once for hourly schedules and uses Madrid days', () => {
    const start = new Date('2025-06-09T21:30:00Z'); // 23:30 Madrid, 9 June
    expect([...repeatDays(start, 12, 'hours', '2025-06-08', '2025-06-11')]).toEqual(['2025-06-09', '2025-06-10', '2025-06-11']);
  });

  it('marks monthly runs clamped to the month end', () => {
    const start = new Date('2025-01-31T09:00:00Z');
    expect([...repeatDays(start, 1, 'months', '2025-02-01', '2025-04-30')]).toEqual(['2025-02-28', '2025-03-31', '2025-04-30']);
  });
});
