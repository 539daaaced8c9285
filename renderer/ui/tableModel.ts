export type SortDirection = 'ascending' | 'descending';
export type SortValue = string | number | Date | null | undefined;

export interface SortState {
  key: string;
  direction: SortDirection;
}

export const DEFAULT_PAGE_SIZE = 12;

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** Blank values sort last whichever the direction, so they never crowd the top of a list. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  const aBlank = a === null || a === undefined || a === '';
  const bBlank = b === null || b === undefined || b === '';
  if (aBlank || bBlank) return aBlank === bBlank ? 0 : aBlank ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  const aNumber = a instanceof Date ? a.getTime() : Number(a);
  const bNumber = b instanceof Date ? b.getTime() : Number(b);
  return aNumber - bNumber;
}

export function sortRows<Row>(rows: readonly Row[], valueOf: (row: Row) => SortValue, direction: SortDirection): Row[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row) }))
    .sort((a, b) => {
      const aBlank = a.value === null || a.value === undefined || a.value === '';
      const bBlank = b.value === null || b.value === undefined || b.value === '';
      // Blanks stay at the end in both directions; ties keep their original order.
      const order = aBlank || bBlank ? compareSortValues(a.value, b.value) : sign * compareSortValues(a.value, b.value);
      return order || a.index - b.index;
    })
    .map(({ row }) => row);
}

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

export function pageOf<Row>(rows: readonly Row[], page: number, pageSize: number): Row[] {
  const start = page * pageSize;
  return rows.slice(start, start + pageSize);
}

/** Clicking a sorted column flips it; clicking another column sorts it ascending. */
export function nextSort(current: SortState | null, key: string): SortState {
  if (current?.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: 'ascending' };
}
