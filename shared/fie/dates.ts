/** Calendar dates of the FIE: AAAAMMDD in files, ISO yyyy-mm-dd once read, dd/mm/yyyy when shown. */
import { digitsValue } from './chars.ts';

const DAY_MS = 86_400_000;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * text[start, end) as the number yyyymmdd when it is exactly eight ASCII digits naming a real calendar
 * date from 1900 on (the proleptic Gregorian calendar of Date), else -1. Arithmetic only: no regex, no Date.
 */
export function fieDateNumber(text: string, start: number, end: number): number {
  if (end - start !== 8) return -1;
  const number = digitsValue(text, start, end);
  return number >= 0 && isFieDateNumber(number) ? number : -1;
}

/** True when the number yyyymmdd names a real calendar date from 1900 on. */
export function isFieDateNumber(number: number): boolean {
  const year = Math.floor(number / 10_000);
  const month = Math.floor(number / 100) % 100;
  const day = number % 100;
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  return day <= monthDays;
}

/** The ISO date of an AAAAMMDD text, or null when it is not a real calendar date (or before 1900). */
export function parseFieDate(text: string): string | null {
  if (fieDateNumber(text, 0, text.length) < 0) return null;
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

/** AAAAMMDD of calendar parts (used when a spreadsheet cell holds a date). */
export function toFieDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

/** dd/mm/yyyy of an ISO date (spec §9: dates and A3 dates display as dd/mm/yyyy). */
export function formatDayMonthYear(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/** Whole days from one ISO date to another (negative when `to` is earlier). */
export function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(`${toIso}T00:00:00Z`) - Date.parse(`${fromIso}T00:00:00Z`)) / DAY_MS);
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil); exact for any Gregorian date. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
