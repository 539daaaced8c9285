import { FirstTableFinder as SharedFinder, type RowLimits } from '#shared/spreadsheet/first-table.ts';
import { capExceeded, formatCount } from './errors.ts';
import { MAX_DATA_ROWS, MAX_SHEET_ROWS } from './limits.ts';

/**
 * The table finder of shared/spreadsheet/first-table.ts (the streaming robots find the header the same
 * way) held to the upload's row caps.
 */

export { HEADER_SEARCH_ROWS, type FirstTable } from '#shared/spreadsheet/first-table.ts';

export function tooManyRows(): Error {
  return capExceeded(`El archivo tiene más de ${formatCount(MAX_DATA_ROWS)} filas, el máximo que se lee. Divídelo en archivos más pequeños.`);
}

const UPLOAD_LIMITS: RowLimits = { sheetRows: MAX_SHEET_ROWS, dataRows: MAX_DATA_ROWS, refusal: tooManyRows };

export class FirstTableFinder<C> extends SharedFinder<C> {
  constructor(firstRow: number | null, lastRow: number | null = null) {
    super(firstRow, lastRow, UPLOAD_LIMITS);
  }
}
