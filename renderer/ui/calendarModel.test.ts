import { describe, expect, it } from 'vitest';
import { addDays, addMonths, eventsByDay, isBetween, nextRange, repeatDays } from './calendarModel.ts';

describe('calendar model', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-03-01', -7)).toBe('2024-02-23');
  });

  it('adds months clamping to the end of shorter months', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2024-01-15', -1)).toBe('2023-12-15');
  });

  it('groups events by their Madrid day, all-day or timed', () => {
    const byDay = eventsByDay([
      { id: '1', htmlLink: 'https://cal/1', start: { date: '2024-05-10' } },
      // 23:30 UTC on the 10th is already the 11th in Madrid (UTC+2 in May).
      { id: '2', htmlLink: 'https://cal/2', start: { dateTime: '2024-05-10T23:30:00Z' } },
      { id: '3', htmlLink: 'https://cal/3', start: { dateTime: '2024-05-10T08:00:00+02:00' } },
      { id: '4', htmlLink: 'https://cal/4', start: {} },
    ]);
    expect(byDay.get('2024-05-10')?.map((event) => event.id)).toEqual(['1', '3']);
    expect(byDay.get('2024-05-11')?.map((event) => event.id)).toEqual(['2']);
    expect(byDay.size).toBe(2);
  });

  it('finds the days a schedule repeats on within a range', () => {
    const start = new Date('2024-01-01T08:00:00Z');
    const everyThreeDays = repeatDays({ start, every: 3, interval: 'days' }, '2024-03-01', '2024-03-10');
    // Day 0 is 1 Jan; 1 Mar is day 60, a multiple of 3.
    expect([...everyThreeDays]).toEqual(['2024-03-01', '2024-03-04', '2024-03-07', '2024-03-10']);
  });

  it('repeats monthly on the same day and never before the start', () => {
    const start = new Date('2024-01-31T09:00:00Z');
    expect([...repeatDays({ start, every: 1, interval: 'months' }, '2023-12-01', '2024-04-30')]).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
  });

  it('marks every day for an hourly schedule', () => {
    const start = new Date('2024-06-01T10:00:00Z');
    expect(repeatDays({ start, every: 6, interval: 'hours' }, '2024-06-10', '2024-06-12').size).toBe(3);
  });

  it('picks ranges: start, then end, then starts over', () => {
    let range = nextRange({ start: null, end: null }, '2024-05-10');
    expect(range).toEqual({ start: '2024-05-10', end: null });
    range = nextRange(range, '2024-05-08');
    expect(range).toEqual({ start: '2024-05-08', end: null });
    range = nextRange(range, '2024-05-12');
    expect(range).toEqual({ start: '2024-05-08', end: '2024-05-12' });
    expect(isBetween('2024-05-09', range)).toBe(true);
    expect(isBetween('2024-05-13', range)).toBe(false);
    expect(nextRange(range, '2024-05-20')).toEqual({ start: '2024-05-20', end: null });
  });
});
