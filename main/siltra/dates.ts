/** ISO days (yyyy-mm-dd) as the FIE fetch counts them: Madrid calendar days, inclusive ranges. */

const MADRID_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Europe/Madrid calendar day of an instant, as yyyy-mm-dd. */
export function madridDay(instant: Date): string {
  return MADRID_DAY.format(instant);
}

/** The Madrid day before the one `instant` falls on (what "yesterday's FIE" means at the office). */
export function madridYesterday(instant: Date): string {
  return addDays(madridDay(instant), -1);
}

export function addDays(isoDay: string, days: number): string {
  const [year, month, day] = isoDay.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The range's two ends in order: [day] is that day alone. */
export function orderedRange(range: readonly [string] | readonly [string, string]): { from: string; to: string } {
  const [first, second = first] = range;
  return first <= second ? { from: first, to: second } : { from: second, to: first };
}

/** Consecutive windows of at most `maxDays` days covering from..to (FIER answers a limited period per query). */
export function splitRange(from: string, to: string, maxDays: number): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    windows.push({ from: start, to: end < to ? end : to });
  }
  return windows;
}

/** yyyymmdd (a FIE header's date) -> yyyy-mm-dd; null when it is not a real date. */
export function isoFromCompact(compact: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(compact);
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso ? iso : null;
}
