/**
 * Europe/Madrid wall-clock time without a time zone database (spec: shown and scheduled in Madrid).
 * EU rule since 1996: CEST (UTC+2) from the last Sunday of March 01:00 UTC to the last Sunday of
 * October 01:00 UTC; CET (UTC+1) the rest of the year. Earlier years are not supported.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A Madrid wall-clock reading. month is 1-12; weekday is ISO (1 = Monday ... 7 = Sunday). */
export interface MadridParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export interface MadridReading extends MadridParts {
  weekday: number;
}

/** UTC instant of 01:00 UTC on the last Sunday of the given month (1-12). */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month, 0, 1));
  lastDay.setUTCDate(lastDay.getUTCDate() - lastDay.getUTCDay());
  return lastDay.getTime();
}

/** Offset of Madrid from UTC at the instant, in minutes: 60 (CET) or 120 (CEST). */
export function madridOffsetMinutes(instant: Date): 60 | 120 {
  const time = instant.getTime();
  const year = instant.getUTCFullYear();
  const summerStarts = lastSundayAtOneUtc(year, 3);
  const summerEnds = lastSundayAtOneUtc(year, 10);
  return time >= summerStarts && time < summerEnds ? 120 : 60;
}

/** Reads the Madrid wall clock at an instant. */
export function toMadridParts(instant: Date): MadridReading {
  const shifted = new Date(instant.getTime() + madridOffsetMinutes(instant) * MINUTE);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    weekday: shifted.getUTCDay() === 0 ? 7 : shifted.getUTCDay(),
  };
}

/**
 * The instant a Madrid wall-clock reading names. Out-of-range fields roll over like Date.UTC
 * (day 32 is the next month's 1st). Two DST edge cases:
 * - a time skipped in spring (02:00-02:59 on the last Sunday of March) moves forward by one hour;
 * - a time repeated in autumn (02:00-02:59 on the last Sunday of October) is the first, CEST one.
 */
export function fromMadridParts(parts: Partial<MadridParts> & Pick<MadridParts, 'year' | 'month' | 'day'>): Date {
  const wallAsUtc = Date.UTC(
    parts.year, parts.month - 1, parts.day,
    parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, parts.millisecond ?? 0,
  );
  const asSummer = wallAsUtc - 2 * HOUR;
  if (madridOffsetMinutes(new Date(asSummer)) === 120) return new Date(asSummer);
  // Either winter time or the spring gap; in the gap this reads one hour later on the wall clock.
  return new Date(wallAsUtc - HOUR);
}

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/** 'yyyy-mm-dd' of the Madrid day the instant falls on; sorts and compares as text. */
export function madridDayKey(instant: Date): string {
  const { year, month, day } = toMadridParts(instant);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** 'dd/mm/yyyy' in Madrid (spec §9 display format). */
export function formatMadridDate(instant: Date): string {
  const { year, month, day } = toMadridParts(instant);
  return `${pad(day)}/${pad(month)}/${pad(year, 4)}`;
}

/** 'HH:mm' in Madrid. */
export function formatMadridTime(instant: Date): string {
  const { hour, minute } = toMadridParts(instant);
  return `${pad(hour)}:${pad(minute)}`;
}

/** 'dd/mm/yyyy HH:mm' in Madrid. */
export function formatMadridDateTime(instant: Date): string {
  return `${formatMadridDate(instant)} ${formatMadridTime(instant)}`;
}

/** The first instant of the Madrid day the instant falls on (midnight never falls in a DST gap). */
export function startOfMadridDay(instant: Date): Date {
  const { year, month, day } = toMadridParts(instant);
  return fromMadridParts({ year, month, day });
}
