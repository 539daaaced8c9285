import { formatDayMonthYear } from './dates.ts';
import type { FieFields } from './types.ts';

/**
 * The document's registration date (field 100): one date as dd/mm/yyyy, or 'first • last' when the
 * entries carry several (a spreadsheet can hold rows of different days). Null when none is known.
 */
export function registryDateOf(fieldSets: readonly FieFields[]): string | null {
  const dates = new Set<string>();
  for (const fields of fieldSets) {
    const date = fields[100]?.normalizedValue;
    if (typeof date === 'string') dates.add(date);
  }
  if (dates.size === 0) return null;
  const sorted = [...dates].sort();
  const first = formatDayMonthYear(sorted[0] ?? '');
  const last = formatDayMonthYear(sorted[sorted.length - 1] ?? '');
  return first === last ? first : `${first} • ${last}`;
}
