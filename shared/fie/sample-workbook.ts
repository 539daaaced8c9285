import type { CellValue } from '../spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '../spreadsheet/xlsx-writer.ts';
import { FIELD_BY_CODE } from './layout.ts';
import { sampleEntry } from './sample.ts';

/**
 * A FIE saved as a spreadsheet, as an advisor's export of a year of partes looks: a title row, a header
 * naming each field by code or by '<code> <label>', then a row per entry of shared/fie/sample.ts.
 * Dates and counts are numbers (as Excel keeps them once typed), codes keep their zeros as text, field
 * 100 (the registration date) varies by month, and a blank row comes now and then. For the streamed
 * spreadsheet's tests and the FIE robot's bench.
 */

const CODES: readonly number[] = [100, ...Object.keys({ ...sampleEntry(0), ...sampleEntry(1) }).map(Number)].sort((a, b) => a - b);

function headerOf(code: number): string {
  const def = FIELD_BY_CODE.get(code);
  return code % 20 === 0 && def ? `${code} ${def.label}` : String(code);
}

function cellOf(code: number, value: string | undefined): CellValue {
  const text = (value ?? '').trim();
  if (text === '' || text === '00000000') return null;
  const type = FIELD_BY_CODE.get(code)?.type;
  // Typed numbers: a date as 20250110, a count as 15 (leading zeros gone, as in a real export).
  if ((type === 'date' || type === 'integer') && /^\d+$/.test(text)) return Number(text);
  return text;
}

/** The sheet's rows: the title, the header, then `entries` entries with a blank row every 997. */
export function* sampleFieSheetRows(entries: number): Generator<CellValue[]> {
  yield ['Partes de IT de la asesoría (exportación)'];
  yield CODES.map(headerOf);
  for (let index = 0; index < entries; index += 1) {
    if (index % 997 === 996) yield [];
    const values = sampleEntry(index);
    const month = 1 + (index % 12);
    yield CODES.map((code) => (code === 100 ? 20250000 + month * 100 + 15 : cellOf(code, values[code])));
  }
}

/** The rows above as an .xlsx, written row by row (inline strings, no dimension, as XlsxWriter writes). */
export function sampleFieWorkbook(entries: number): Uint8Array {
  const book = new XlsxWriter();
  const sheet = book.addSheet('Partes');
  for (const row of sampleFieSheetRows(entries)) sheet.row(row);
  sheet.end();
  return book.finish();
}
