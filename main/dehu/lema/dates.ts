import { fromMadridParts, madridOffsetMinutes, startOfMadridDay, toMadridParts } from '#shared/time/madrid.ts';

/**
 * LEMA's dateTimes: Madrid wall-clock time with its offset and no milliseconds (PHP's DATE_ATOM). DEHÚ
 * compares them with its local time and rejects UTC or milliseconds (4207 / 2001, external-systems §1.5).
 */
const pad = (value: number, length = 2) => String(value).padStart(length, '0');

export function formatLemaDate(instant: Date): string {
  const { year, month, day, hour, minute, second } = toMadridParts(instant);
  const offset = madridOffsetMinutes(instant);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}+${pad(offset / 60)}:00`;
}

/** The only form LEMA takes: yyyy-mm-ddTHH:mm:ss±HH:MM. */
export const LEMA_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** fechaHasta must be before today: at most yesterday 23:59:59 in Madrid. */
export function latestFechaHasta(now: Date): Date {
  return new Date(startOfMadridDay(now).getTime() - 1000);
}

/** LocalizaRealizadas' fechaDesde may go back at most 30 days (4224): the client asks from Madrid midnight 29 days back. */
export const REALIZADAS_MAX_DAYS_BACK = 30;
export function earliestRealizadasFechaDesde(now: Date): Date {
  const { year, month, day } = toMadridParts(now);
  return fromMadridParts({ year, month, day: day - (REALIZADAS_MAX_DAYS_BACK - 1) });
}

/** A date LEMA sent, as ISO with the Madrid offset and no milliseconds; null when it is not a date. */
export function readLemaDate(value: string | null): string | null {
  if (value === null) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : formatLemaDate(new Date(time));
}
