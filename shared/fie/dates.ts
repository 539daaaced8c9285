/** Calendar dates of the FIE: AAAAMMDD in files, ISO yyyy-mm-dd once read, dd/mm/yyyy when shown. */

const DAY_MS = 86_400_000;

/** The ISO date of an AAAAMMDD text, or null when it is not a real calendar date. */
export function parseFieDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  // Date.UTC rolls 20250231 over to March; a round trip catches it.
  const valid = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return valid && Number(year) >= 1900 ? `${year}-${month}-${day}` : null;
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
