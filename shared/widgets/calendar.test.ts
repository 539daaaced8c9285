import { describe, expect, it } from 'vitest';
import { calendarYears, isDayInRange, isoWeek, monthGrid, repeatDays, selectRangeDay } from './calendar.ts';

describe('calendarYears', () => {
  it('runs from 1900 to the current Madrid year', () => {
    const years = calendarYears(new Date('2025-12-31T23:30:00Z')); // already 2026 in Madrid
    expect(years[0]).toBe(1900);
    expect(years.at(-1)).toBe(2026);
    expect(years).toHaveLength(127);
  });
});

describe('isoWeek', () => {
  it('follows ISO 8601 around the year end', () => {
    expect(isoWeek('2025-01-01')).toEqual({ year: 2025, week: 1 });
    expect(isoWeek('2024-12-30')).toEqual({ year: 2025, week: 1 });
    expect(isoWeek('2021-01-03')).toEqual({ year: 2020, week: 53 });
    expect(isoWeek('2025-06-10')).toEqual({ year: 2025, week: 24 });
  });
});

describe('monthGrid', () => {
  it('covers the month with Monday-to-Sunday weeks', () => {
    const weeks = monthGrid(2025, 6); // 1 June 2025 is a Sunday
    expect(weeks).toHaveLength(6);
    expect(weeks[0]?.days[0]).toEqual({ key: '2025-05-26', day: 26, inMonth: false });
    expect(weeks[0]?.days[6]).toEqual({ key: '2025-06-01', day: 1, inMonth: true });
    expect(weeks.at(-1)?.days[0]).toEqual({ key: '2025-06-30', day: 30, inMonth: true });
    expect(weeks.map((week) => week.week)).toEqual([22, 23, 24, 25, 26, 27]);
  });

  it('has four weeks for a February that starts on Monday', () => {
    const weeks = monthGrid(2021, 2);
    expect(weeks).toHaveLength(4);
    expect(weeks.flatMap((week) => week.days).every((day) => day.inMonth)).toBe(true);
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

  it('tells which days are in the range', () => {
    const range = { start: '2025-06-10', end: '2025-06-12' };
    expect(['2025-06-09', '2025-06-10', '2025-06-11', '2025-06-12', '2025-06-13'].map((day) => isDayInRange(day, range)))
      .toEqual([false, true, true, true, false]);
    expect(isDayInRange('2025-06-10', { start: '2025-06-10', end: null })).toBe(true);
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
