import { z } from 'zod/mini';

/** Format checks behind the generic validators that are not Spanish identifiers (spec §5). */

/** Email as the API accepts it (shared/api/fields.ts), compared lowercased. The pattern z.email() checks
 * with, not the schema: forms on the sign-in page validate email, and a schema would bring zod into its bundle. */
export function isValidEmail(value: string): boolean {
  const email = value.trim().toLowerCase();
  return email.length <= 254 && z.regexes.email.test(email);
}

/**
 * Spanish phone number: optional +34 / 0034 prefix, then 9 digits starting with 6 or 7 (mobile)
 * or 8 or 9 (fixed lines). No Spanish line starts with 5 (only special and corporate numbers
 * do), so it is refused. Spaces, dots, hyphens and parentheses are ignored.
 */
export function isValidSpanishPhone(value: string): boolean {
  const compact = value.replace(/[\s.()-]/g, '').replace(/^(\+34|0034)/, '');
  return /^[6-9]\d{8}$/.test(compact);
}

/** Numeric text: optional sign, digits, optional decimals after a dot or a comma. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && /^[-+]?\d+([.,]\d+)?$/.test(value.trim());
}

/** A calendar date as year, month (1-12) and day, checked against the real month length. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function realDate(year: number, month: number, day: number): CalendarDate | null {
  const probe = new Date(Date.UTC(year, month - 1, day));
  const real = probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  return real ? { year, month, day } : null;
}

/**
 * Reads the date part of 'dd/mm/yyyy' (also with - or .) or ISO 'yyyy-mm-dd[Thh:mm...]'.
 * Returns null for anything else or for days that do not exist (31/02).
 */
export function parseCalendarDate(value: string): CalendarDate | null {
  const text = value.trim();
  const spanish = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (spanish) return realDate(Number(spanish[3]), Number(spanish[2]), Number(spanish[1]));
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (iso && (iso[0].length === 10 || !Number.isNaN(Date.parse(text)))) {
    return realDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  }
  return null;
}

export function isValidDate(value: unknown): boolean {
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  return typeof value === 'string' && parseCalendarDate(value) !== null;
}

/**
 * Web address with an optional http(s) scheme: 'www.gestoria.es', 'https://a.b/c?d',
 * 'http://localhost:8081'. The host needs a dot and a letter TLD unless it is localhost.
 */
export function isValidUrl(value: string): boolean {
  const label = '[a-z0-9\\u00a1-\\uffff](?:[a-z0-9\\u00a1-\\uffff-]{0,61}[a-z0-9\\u00a1-\\uffff])?';
  const host = `(?:localhost|(?:${label}\\.)+[a-z\\u00a1-\\uffff]{2,63})`;
  const pattern = new RegExp(`^(?:https?://)?${host}(?::\\d{1,5})?(?:[/?#][^\\s]*)?$`, 'i');
  return pattern.test(value.trim());
}

/** Person or company name: letters (any alphabet, accents), spaces and hyphens, at least one letter. */
export function isValidName(value: string): boolean {
  return /^[\p{L}\s-]+$/u.test(value) && /\p{L}/u.test(value);
}
