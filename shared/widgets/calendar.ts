import { nextRunDate, type ScheduleInterval } from '../schedule/next-run.ts';
import { fromMadridParts, madridDayKey, toMadridParts } from '../time/madrid.ts';

/**
 * Calendar widget helpers (spec §2 Calendar widget, §9). Days are calendar dates written
 * 'yyyy-mm-dd' (DayKey): they sort as text and carry no time zone.
 */

export type DayKey = string;

export const FIRST_CALENDAR_YEAR = 1900;

/** The years the year selector offers: 1900 up to the current Madrid year. */
export function calendarYears(now: Date, first = FIRST_CALENDAR_YEAR): number[] {
  const last = toMadridParts(now).year;
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

// The month grid, ISO weeks and range highlighting are react-day-picker's job (renderer/ui/Calendar.tsx);
// what stays here are the app's own rules: the year span, range clicks and repeat days.

export interface DayRange {
  start: DayKey | null;
  end: DayKey | null;
}

/**
 * Range selection by clicks: the first click starts a range, the second closes it (in either
 * order), and a click on a closed range starts a new one.
 */
export function selectRangeDay(range: DayRange, day: DayKey): DayRange {
  if (range.start === null || range.end !== null) return { start: day, end: null };
  return day < range.start ? { start: day, end: range.start } : { start: range.start, end: day };
}

/**
 * Days between `from` and `to` (inclusive) on which a repeating schedule runs, on the Madrid
 * calendar, for highlighting its repeat interval. Days before the schedule's start are never marked.
 */
export function repeatDays(start: Date, every: number, interval: ScheduleInterval, from: DayKey, to: DayKey): Set<DayKey> {
  const days = new Set<DayKey>();
  const [year = 0, month = 1, day = 1] = from.split('-').map(Number);
  let next = nextRunDate(start, every, interval, new Date(fromMadridParts({ year, month, day }).getTime() - 1));
  while (madridDayKey(next) <= to) {
    days.add(madridDayKey(next));
    next = nextRunDate(start, every, interval, next);
  }
  return days;
}
