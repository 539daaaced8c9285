import type { ZipEntryWriter } from './zip-builder.ts';

/**
 * SpreadsheetML written row by row: the cells of a worksheet part (xl/worksheets/sheetN.xml) as the
 * rows come, text as inline strings so no string table has to be held until the end.
 */

export type CellValue = string | number | boolean | null | undefined;

export const SPREADSHEET_NAMESPACE = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The cellXfs index of the text format ('@', numFmtId 49) in the styles this module writes. A text that
 * a spreadsheet could take for a formula is written with it, so Excel keeps it as text when the cell is
 * edited (see resources/flows/_lib/workbook.ts withoutFormulas).
 */
export const TEXT_STYLE = 1;

/** The cellXfs index of the date format (dd/mm/yyyy, numFmtId 164) in the styles this module writes. */
export const DATE_STYLE = 2;

/** The cellXfs index of the euro format ('1.234,50 €' in a Spanish Excel; numFmtId 165) in the styles this module writes. */
export const EUROS_STYLE = 3;

/**
 * How a column's cells are written beyond their value's type. 'date': a number is an Excel serial day
 * (excelDay) written with DATE_STYLE, so a sheet shows it as dd/mm/yyyy and sorts and filters it as a
 * date; 'euros': a number is an amount in euros, written with EUROS_STYLE (two decimals and '€'), still
 * a number to add up. Text in such a column (its header) is written as text.
 */
export type CellKind = 'date' | 'euros';

const KIND_STYLES: Readonly<Record<CellKind, number>> = { date: DATE_STYLE, euros: EUROS_STYLE };

/** 1970-01-01 as an Excel serial day (the 1900 date system). */
const UNIX_EPOCH_DAY = 25_569;
const DAY_MS = 86_400_000;

/**
 * The Excel serial day (1900 date system) of a civil date: 1 for 1900-01-01, 45658 for 2025-01-01. Excel
 * counts a 29 February 1900 that never was, so from 1 March 1900 on a serial is one more than the days.
 */
export function excelDay(year: number, month: number, day: number): number {
  const serial = Date.UTC(year, month - 1, day) / DAY_MS + UNIX_EPOCH_DAY;
  return serial < 61 ? serial - 1 : serial;
}

/** '=', '+', '-', '@', a tab or a carriage return: how a formula (or a DDE payload) starts. */
const FORMULA_START = /^[=+\-@\t\r]/;

const columnNames: string[] = [];

/** 'A' for 0, 'Z' for 25, 'AA' for 26... */
export function columnName(index: number): string {
  let name = columnNames[index];
  if (name !== undefined) return name;
  name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  columnNames[index] = name;
  return name;
}

/** Characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/FFFF), and Excel's escape itself. */
// eslint-disable-next-line no-control-regex
const UNWRITABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;
const HAS_UNWRITABLE = new RegExp(UNWRITABLE.source);
const MARKUP = /[&<>"]/g;
const HAS_MARKUP = /[&<>"]/;
const MARKUP_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Text as XML character data. What XML cannot carry is written as Excel writes it, `_xHHHH_`, which
 * Excel and SheetJS read back as the character (a literal '_x0041_' is kept by escaping its '_').
 */
export function escapeXml(text: string): string {
  // Most cells need neither: a plain scan is cheaper than a replace that finds nothing.
  const escaped = HAS_UNWRITABLE.test(text)
    ? text.replace(UNWRITABLE, (char) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    : text;
  return HAS_MARKUP.test(escaped) ? escaped.replace(MARKUP, (char) => MARKUP_ENTITIES[char] ?? char) : escaped;
}

/** One cell's XML at 0-based `column` of the 1-based `row`, of its column's `kind`; '' for an empty cell. */
export function cellXml(column: number, row: number, value: CellValue, kind?: CellKind): string {
  if (value === null || value === undefined || value === '') return '';
  const reference = `${columnName(column)}${row}`;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return kind !== undefined ? `<c r="${reference}" s="${KIND_STYLES[kind]}"><v>${value}</v></c>` : `<c r="${reference}"><v>${value}</v></c>`;
    return cellXml(column, row, String(value));
  }
  if (typeof value === 'boolean') return `<c r="${reference}" t="b"><v>${value ? 1 : 0}</v></c>`;
  const style = FORMULA_START.test(value) ? ` s="${TEXT_STYLE}"` : '';
  return `<c r="${reference}"${style} t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
}

/** A worksheet part written row after row. */
export class SheetWriter {
  private written = 0;

  /**
   * @param widths column widths in characters, by 0-based column (Excel's default where missing).
   * @param kinds each column's CellKind, by 0-based column (none where missing).
   */
  constructor(
    private readonly entry: ZipEntryWriter,
    widths: readonly (number | undefined)[] = [],
    private readonly kinds: readonly (CellKind | undefined)[] = [],
  ) {
    const columns = widths
      .map((width, index) => (width === undefined ? '' : `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`))
      .join('');
    entry.write(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${SPREADSHEET_NAMESPACE}" xmlns:r="${RELATIONSHIPS_NAMESPACE}">`);
    if (columns !== '') entry.write(`<cols>${columns}</cols>`);
    entry.write('<sheetData>');
  }

  /** The next row; an all-empty row is still counted (it keeps its place), and written as nothing. */
  row(values: readonly CellValue[]): void {
    this.written += 1;
    const number = this.written;
    let cells = '';
    for (let column = 0; column < values.length; column += 1) cells += cellXml(column, number, values[column], this.kinds[column]);
    if (cells !== '') this.entry.write(`<row r="${number}">${cells}</row>`);
  }

  /** Rows written so far. */
  get rows(): number {
    return this.written;
  }

  end(): void {
    this.entry.write('</sheetData></worksheet>');
    this.entry.end();
  }
}
