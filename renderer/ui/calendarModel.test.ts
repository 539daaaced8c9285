import { describe, expect, it } from 'vitest';
import { dateOfKey, eventsByDay, keyOfDate } from './calendarModel.ts';

describe('calendar model', () => {
  it('turns day keys into local-midnight dates and back, old years included', () => {
    const date = dateOfKey('2024-02-29');
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours()]).toEqual([2024, 1, 29, 0]);
    expect(keyOfDate(date)).toBe('2024-02-29');
    expect(keyOfDate(dateOfKey('1900-01-01'))).toBe('1900-01-01');
    expect(keyOfDate(new Date(2023, 11, 31, 23, 59))).toBe('2023-12-31');
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
});
