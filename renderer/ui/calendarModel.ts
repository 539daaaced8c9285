import type { ScheduleInterval } from '#shared/schedule/index.ts';
import { madridDayKey } from '#shared/time/index.ts';
import type { DayKey } from '#shared/widgets/index.ts';

// Days are 'yyyy-mm-dd' keys (shared/widgets): they compare as text and never shift with time zones.
export type { DayKey, DayRange } from '#shared/widgets/index.ts';

/** An event of an external calendar (Google-style items: start has a dateTime or an all-day date). */
export interface CalendarEvent {
  id: string;
  summary?: string;
  htmlLink: string;
  start: { dateTime?: string; date?: string };
}

export interface RepeatRule {
  start: Date;
  every: number;
  interval: ScheduleInterval;
}

const pad = (value: number) => String(value).padStart(2, '0');

export function dayKeyOf(year: number, month: number, day: number): DayKey {
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

export function parseDayKey(key: DayKey): { year: number; month: number; day: number } {
  const [year = 1970, month = 1, day = 1] = key.split('-').map(Number);
  return { year, month, day };
}

/**
 * react-day-picker works on local-midnight Dates; the widget's values are day keys. These two convert
 * between them with local getters only, so no time zone offset can move a day.
 */
export function dateOfKey(key: DayKey): Date {
  const { year, month, day } = parseDayKey(key);
  const date = new Date(year, month - 1, day);
  // new Date(y, ...) maps years 0-99 to 1900-1999.
  date.setFullYear(year);
  return date;
}

export function keyOfDate(date: Date): DayKey {
  return dayKeyOf(date.getFullYear(), date.getMonth() + 1, date.getDate());
}

export function eventDayKey(event: CalendarEvent): DayKey | null {
  if (event.start.date) return event.start.date.slice(0, 10);
  if (event.start.dateTime) {
    const instant = new Date(event.start.dateTime);
    return Number.isNaN(instant.getTime()) ? null : madridDayKey(instant);
  }
  return null;
}

export function eventsByDay(events: readonly CalendarEvent[]): Map<DayKey, CalendarEvent[]> {
  const byDay = new Map<DayKey, CalendarEvent[]>();
  for (const event of events) {
    const key = eventDayKey(event);
    if (key) byDay.set(key, [...(byDay.get(key) ?? []), event]);
  }
  return byDay;
}
