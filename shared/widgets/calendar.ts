import { nextRunDate, type ScheduleInterval } from '../schedule/next-run.ts';
import { fromMadridParts, madridDayKey, toMadridParts } from '../time/madrid.ts';

/**
 * Calendar widget helpers (spec §2 Calendar widget, §9). Days are calendar dates written
 * 'yyyy-mm-dd' (DayKey): they sort as text and carry no time zone.
 */

export type DayKey = string;

export const FIRST_CALENDAR_YEAR = 1900;

const DAY = 86_400_000;
const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

function toKey(utcMidnight: number): DayKey {
  const date = new Date(utcMidnight);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function fromKey(day: DayKey): number {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date);
}

/** The years the year selector offers: 1900 up to the current Madrid year. */
export function calendarYears(now: Date, first = FIRST_CALENDAR_YEAR): number[] {
  const last = toMadridParts(now).year;
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

/** ISO 8601 week: weeks start on Monday and week 1 holds the year's first Thursday. */
export function isoWeek(day: DayKey): { year: number; week: number } {
  const time = fromKey(day);
  const weekday = (new Date(time).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  const thursday = new Date(time + (3 - weekday) * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  return { year, week };
}

export interface CalendarDay {
  key: DayKey;
  day: number;
  inMonth: boolean;
}

export interface CalendarWeek {
  week: number;
  days: CalendarDay[];
}

/** The month view (month 1-12): whole Monday-to-Sunday weeks covering the month. */
export function monthGrid(year: number, month: number): CalendarWeek[] {
  const first = Date.UTC(year, month - 1, 1);
  const last = Date.UTC(year, month, 0);
  const gridStart = first - ((new Date(first).getUTCDay() + 6) % 7) * DAY;
  const weeks: CalendarWeek[] = [];
  for (let weekStart = gridStart; weekStart <= last; weekStart += 7 * DAY) {
    const days = Array.from({ length: 7 }, (_, index) => {
      const time = weekStart + index * DAY;
      return { key: toKey(time), day: new Date(time).getUTCDate(), inMonth: time >= first && time <= last };
    });
    weeks.push({ week: isoWeek(toKey(weekStart)).week, days });
  }
  return weeks;
}

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

export function isDayInRange(day: DayKey, range: DayRange): boolean {
  if (range.start === null) return false;
  return day >= range.start && day <= (range.end ?? range.start);
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
