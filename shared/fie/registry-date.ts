import { formatDayMonthYear } from './dates.ts';
import type { FieFields } from './types.ts';

/**
 * The document's registration date (field 100): one date as dd/mm/yyyy, or 'first • last' when the
 * entries carry several (a spreadsheet can hold rows of different days). Null when none is known.
 */
export function registryDateOf(fieldSets: readonly FieFields[]): string | null {
  const dates = new RegistryDates();
  for (const fields of fieldSets) dates.add(fields);
  return dates.text();
}

/** The same, gathered entry by entry (a streamed spreadsheet): only the first and last ISO dates are kept. */
export class RegistryDates {
  private first: string | null = null;
  private last: string | null = null;

  add(fields: FieFields): void {
    const date = fields[100]?.normalizedValue;
    if (typeof date !== 'string') return;
    if (this.first === null || date < this.first) this.first = date;
    if (this.last === null || date > this.last) this.last = date;
  }

  text(): string | null {
    if (this.first === null || this.last === null) return null;
    const first = formatDayMonthYear(this.first);
    const last = formatDayMonthYear(this.last);
    return first === last ? first : `${first} • ${last}`;
  }
}
