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

/** Calendar arithmetic on day keys (UTC dates, so no daylight-saving hour gets in the way). */
export function addDays(key: DayKey, days: number): DayKey {
  const { year, month, day } = parseDayKey(key);
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return dayKeyOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** The same day `months` later, clamped to the end of a shorter month (31 Jan + 1 -> 28/29 Feb). */
export function addMonths(key: DayKey, months: number): DayKey {
  const { year, month, day } = parseDayKey(key);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return dayKeyOf(targetYear, targetMonth, Math.min(day, lastDay));
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
