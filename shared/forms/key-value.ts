/** Multi key/value rows, e.g. a company's CCC list: label plus key per row (spec §5). */

export interface KeyValueRow {
  label: string;
  key: string;
}

export const KEY_VALUE_ROW_MESSAGE = 'Comprueba la información';

const blankRow = (): KeyValueRow => ({ label: '', key: '' });
const isBlank = (row: KeyValueRow): boolean => row.label.trim() === '' && row.key.trim() === '';

/**
 * One message per row: every row needs both a label and a key. A list holding a single blank row
 * is the cleared list (see removeKeyValueRow) and means 'no entries', so it is not an error.
 */
export function keyValueRowErrors(rows: readonly KeyValueRow[]): (string | null)[] {
  if (rows.length === 1 && rows[0] !== undefined && isBlank(rows[0])) return [null];
  return rows.map((row) => (row.label.trim() === '' || row.key.trim() === '' ? KEY_VALUE_ROW_MESSAGE : null));
}

export function areKeyValueRowsValid(rows: readonly KeyValueRow[]): boolean {
  return keyValueRowErrors(rows).every((error) => error === null);
}

export function addKeyValueRow(rows: readonly KeyValueRow[]): KeyValueRow[] {
  return [...rows, blankRow()];
}

export function updateKeyValueRow(rows: readonly KeyValueRow[], index: number, change: Partial<KeyValueRow>): KeyValueRow[] {
  return rows.map((row, at) => (at === index ? { ...row, ...change } : row));
}

/** Removes a row; the last remaining row is cleared instead, so the editor always shows one. */
export function removeKeyValueRow(rows: readonly KeyValueRow[], index: number): KeyValueRow[] {
  if (rows.length <= 1) return [blankRow()];
  return rows.filter((_, at) => at !== index);
}

/** The rows to save: trimmed, without blank ones. */
export function keyValueRowsToSave(rows: readonly KeyValueRow[]): KeyValueRow[] {
  return rows.filter((row) => !isBlank(row)).map((row) => ({ label: row.label.trim(), key: row.key.trim() }));
}
