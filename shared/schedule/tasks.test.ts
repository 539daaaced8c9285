import { describe, expect, it } from 'vitest';
import { groupTasksByDay, isForToday } from './tasks.ts';

const now = new Date('2025-06-10T10:00:00Z'); // 12:00 in Madrid, Tuesday 10 June

describe('groupTasksByDay', () => {
  it('puts today and overdue tasks under Robots para hoy, then later days in order', () => {
    const tasks = [
      { id: 'friday', scheduledDate: '2025-06-13T07:00:00Z' },
      { id: 'tonight', scheduledDate: '2025-06-10T20:00:00Z' },
      { id: 'overdue', scheduledDate: '2025-06-08T07:00:00Z' },
      { id: 'tomorrow', scheduledDate: new Date('2025-06-11T06:00:00Z') },
      { id: 'morning', scheduledDate: '2025-06-10T06:00:00Z' },
    ];
    const groups = groupTasksByDay(tasks, now);
    expect(groups.map((group) => [group.title, group.today, group.tasks.map((task) => task.id)])).toEqual([
      ['Robots para hoy', true, ['overdue', 'morning', 'tonight']],
      ['11/06/2025', false, ['tomorrow']],
      ['13/06/2025', false, ['friday']],
    ]);
    expect(groups[0]?.key).toBe('2025-06-10');
  });

  it('uses Madrid days: 23:30 UTC already belongs to the next day', () => {
    const groups = groupTasksByDay([{ scheduledDate: '2025-06-10T22:30:00Z' }], now);
    expect(groups.map((group) => group.title)).toEqual(['11/06/2025']);
  });

  it('leaves out tasks without a valid date and gives no groups for no tasks', () => {
    expect(groupTasksByDay([{ scheduledDate: 'pronto' }], now)).toEqual([]);
    expect(groupTasksByDay([], now)).toEqual([]);
  });
});

describe('isForToday', () => {
  it('is true up to the end of the Madrid day', () => {
    expect(isForToday({ scheduledDate: '2025-06-10T21:59:00Z' }, now)).toBe(true);
    expect(isForToday({ scheduledDate: '2025-06-10T22:00:00Z' }, now)).toBe(false);
    expect(isForToday({ scheduledDate: '2025-01-01T00:00:00Z' }, now)).toBe(true);
  });
});
