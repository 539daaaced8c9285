import { formatMadridDate, madridDayKey } from '../time/madrid.ts';

export const TODAY_GROUP_TITLE = 'Robots para hoy';

export interface TaskDayGroup<T> {
  /** 'yyyy-mm-dd' of the Madrid day; the today group carries today's key. */
  key: string;
  /** 'Robots para hoy', or the day as dd/mm/yyyy. */
  title: string;
  today: boolean;
  tasks: T[];
}

const timeOf = (task: { scheduledDate: string | Date }): number => new Date(task.scheduledDate).getTime();

/**
 * Spec §2 Autopilot: tasks grouped by Madrid day. 'Robots para hoy' holds today's tasks and any
 * overdue ones from earlier days (they still have to run); later days follow in order, titled
 * dd/mm/yyyy. Tasks are sorted by time within each group; tasks without a valid date are left out.
 */
export function groupTasksByDay<T extends { scheduledDate: string | Date }>(tasks: readonly T[], now: Date): TaskDayGroup<T>[] {
  const todayKey = madridDayKey(now);
  const byDay = new Map<string, TaskDayGroup<T>>();
  const dated = tasks.filter((task) => !Number.isNaN(timeOf(task))).sort((a, b) => timeOf(a) - timeOf(b));

  for (const task of dated) {
    const instant = new Date(task.scheduledDate);
    const dayKey = madridDayKey(instant);
    const today = dayKey <= todayKey;
    const key = today ? todayKey : dayKey;
    let group = byDay.get(key);
    if (group === undefined) {
      group = { key, title: today ? TODAY_GROUP_TITLE : formatMadridDate(instant), today, tasks: [] };
      byDay.set(key, group);
    }
    group.tasks.push(task);
  }
  return [...byDay.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Tasks that belong in 'Robots para hoy': scheduled on today's Madrid day or earlier. */
export function isForToday(task: { scheduledDate: string | Date }, now: Date): boolean {
  const time = timeOf(task);
  return !Number.isNaN(time) && madridDayKey(new Date(time)) <= madridDayKey(now);
}
