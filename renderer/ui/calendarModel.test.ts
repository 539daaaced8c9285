import { describe, expect, it } from 'vitest';
import { addDays, addMonths, eventsByDay } from './calendarModel.ts';

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
});
