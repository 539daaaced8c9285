import * as XLSX from 'xlsx';
import type { RobotFile } from '#shared/flows/robot.ts';
import { fileExtension } from '#shared/files/types.ts';
import { baseName, decodeText } from './text.ts';

/**
 * Reading and writing the workbooks robots take and give, with SheetJS. Cells are read as the text the
 * user sees in the sheet (a number cell formatted '00000000000' keeps its zeros), and CSV values are
 * kept as typed: SheetJS would otherwise turn '08123456789' into the number 8123456789.
 */

const TEXT_EXTENSIONS = new Set(['csv', 'txt']);

/** The workbook of an uploaded file, or null when SheetJS cannot read it (damaged, not a sheet). */
export function readWorkbook(file: RobotFile): XLSX.WorkBook | null {
  try {
    if (TEXT_EXTENSIONS.has(fileExtension(file.name))) {
      const workbook = XLSX.read(decodeText(file.data), { type: 'string', raw: true });
      renameFirstSheet(workbook, sheetNameFor(baseName(file.name)));
      return workbook;
    }
    // cellNF keeps number formats ('00000000000' for a CCC) and cellStyles the column widths.
    return XLSX.read(file.data, { type: 'array', cellNF: true, cellStyles: true });
  } catch {
    return null;
  }
}

/** A sheet name Excel accepts: no [ ] : * ? / \ and at most 31 characters. */
export function sheetNameFor(text: string): string {
  const name = text.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 31).trim();
  return name === '' ? 'Hoja1' : name;
}

/** A CSV read by SheetJS has one sheet called 'Sheet1'; the advisor's file name says more. */
function renameFirstSheet(workbook: XLSX.WorkBook, name: string): void {
  const current = workbook.SheetNames[0];
  const sheet = current === undefined ? undefined : workbook.Sheets[current];
  if (current === undefined || sheet === undefined || current === name) return;
  delete workbook.Sheets[current];
  workbook.Sheets[name] = sheet;
  workbook.SheetNames[0] = name;
}

/**
 * The .xlsx a robot hands back. Its cells are made inert first (withoutFormulas): an output never
 * carries a formula, whatever the input workbook held.
 */
export function writeWorkbook(workbook: XLSX.WorkBook): Uint8Array {
  const written: ArrayBuffer = XLSX.write(withoutFormulas(workbook), { type: 'array', bookType: 'xlsx', compression: true });
  return new Uint8Array(written);
}

/**
 * How a cell's text starts when a spreadsheet (or a CSV made from it) may take it for a formula:
 * '=', '+', '-', '@', a tab or a carriage return (DDE payloads such as `=cmd|' /C calc'!A0`).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Whether a cell's text would be read as a formula if it were typed or imported (see FORMULA_START). */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/**
 * The workbook with every cell inert, changed in place: formulas are dropped (a cell keeps its last
 * computed value: a number stays a number, a text stays a text; with none, or an error, the
 * formula's own text becomes the cell's text), and a text that would start a formula is written as
 * a text cell formatted as text ('@'), so Excel keeps it as text even when the cell is edited.
 * Numbers (negative ones too), dates and booleans are left as they are.
 */
export function withoutFormulas(workbook: XLSX.WorkBook): XLSX.WorkBook {
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (sheet === undefined) continue;
    for (const [address, value] of Object.entries(sheet)) {
      if (address.startsWith('!')) continue;
      sheet[address] = inertCell(value as XLSX.CellObject);
    }
  }
  return workbook;
}

function inertCell(cell: XLSX.CellObject): XLSX.CellObject {
  const { f: formula, F: _arrayRange, D: _dynamic, ...inert } = cell;
  // A formula with no value to keep (never computed, or an error such as a DDE call's #REF!): its text.
  if (formula !== undefined && (inert.t === 'e' || inert.t === 'z' || inert.v === undefined || inert.v === null)) return asText(`=${formula.replace(/^=/, '')}`, cell);
  if (typeof inert.v === 'string' && looksLikeFormula(inert.v)) return asText(inert.v, cell);
  return inert;
}

/** A plain text cell of `text`, formatted as text, keeping the cell's comments and link. */
function asText(text: string, cell: XLSX.CellObject): XLSX.CellObject {
  const { c: comments, l: link, s: style } = cell;
  return { t: 's', v: text, z: '@', ...(comments !== undefined && { c: comments }), ...(link !== undefined && { l: link }), ...(style !== undefined && { s: style as unknown }) };
}

/** The text a cell shows, trimmed ('' for no cell). */
export function cellText(cell: XLSX.CellObject | undefined): string {
  if (cell === undefined || cell.v === undefined || cell.v === null) return '';
  const shown = cell.w ?? (cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v));
  return shown.trim();
}

export function cellAt(sheet: XLSX.WorkSheet, row: number, column: number): XLSX.CellObject | undefined {
  return sheet[XLSX.utils.encode_cell({ r: row, c: column })] as XLSX.CellObject | undefined;
}

/**
 * The first sheet as a table: a header row (see headerRowOf) and every non-blank row below it as data.
 * The server's column list of an upload (ColumnMapping) should use this too, so the headers the user
 * maps are the ones the robot finds.
 */
export interface SheetTable {
  sheetName: string;
  sheet: XLSX.WorkSheet;
  /** 0-based row of the header in the sheet. */
  headerRow: number;
  /** Header text by 0-based sheet column ('' where the header cell is blank). */
  headers: string[];
  /** 0-based sheet rows holding data, in order; blank rows are left out. */
  dataRows: number[];
}

function filledCells(sheet: XLSX.WorkSheet, row: number, range: XLSX.Range): number {
  let filled = 0;
  for (let column = range.s.c; column <= range.e.c; column += 1) {
    if (cellText(cellAt(sheet, row, column)) !== '') filled += 1;
  }
  return filled;
}

/** How far down a header row is looked for: past a title and a blank line or two, not into the data. */
const HEADER_SEARCH_ROWS = 10;

/**
 * The header: the first row with two or more filled cells among the first rows, so a title line
 * ('Plantilla enero 2025') above the table is skipped; a one-column sheet's first filled row otherwise.
 */
function headerRowOf(sheet: XLSX.WorkSheet, range: XLSX.Range): number | null {
  let firstFilled: number | null = null;
  const last = Math.min(range.e.r, range.s.r + HEADER_SEARCH_ROWS - 1);
  for (let row = range.s.r; row <= last; row += 1) {
    const filled = filledCells(sheet, row, range);
    if (filled >= 2) return row;
    if (filled === 1) firstFilled ??= row;
  }
  if (firstFilled !== null) return firstFilled;
  for (let row = last + 1; row <= range.e.r; row += 1) if (filledCells(sheet, row, range) > 0) return row;
  return null;
}

/** The first sheet's table, or null when the sheet is empty. */
export function firstSheetTable(workbook: XLSX.WorkBook): SheetTable | null {
  const sheetName = workbook.SheetNames[0];
  const sheet = sheetName === undefined ? undefined : workbook.Sheets[sheetName];
  if (sheetName === undefined || sheet === undefined || sheet['!ref'] === undefined) return null;
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const headerRow = headerRowOf(sheet, range);
  if (headerRow === null) return null;
  const headers: string[] = [];
  for (let column = 0; column <= range.e.c; column += 1) headers.push(column < range.s.c ? '' : cellText(cellAt(sheet, headerRow, column)));
  const dataRows: number[] = [];
  for (let row = headerRow + 1; row <= range.e.r; row += 1) {
    if (filledCells(sheet, row, range) > 0) dataRows.push(row);
  }
  return { sheetName, sheet, headerRow, headers, dataRows };
}

/** A column to add to a sheet right after an existing one. */
export interface AddedColumn {
  /** 0-based column it follows. */
  after: number;
  header: string;
  /** Cell text by 0-based sheet row. */
  values: ReadonlyMap<number, string>;
}

/**
 * A copy of the sheet with the columns added, the cells to their right moved along (cell values,
 * types, formats; merges and column widths too). Formulas are copied as written (SheetJS does not
 * rewrite references), but writeWorkbook drops every formula, keeping each cell's last value.
 */
export function withAddedColumns(sheet: XLSX.WorkSheet, headerRow: number, added: readonly AddedColumn[]): XLSX.WorkSheet {
  const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1');
  const shiftOf = (column: number) => added.filter((addition) => addition.after < column).length;
  const result: XLSX.WorkSheet = {};
  for (const [address, cell] of Object.entries(sheet)) {
    if (address.startsWith('!')) continue;
    const { r, c } = XLSX.utils.decode_cell(address);
    result[XLSX.utils.encode_cell({ r, c: c + shiftOf(c) })] = cell as XLSX.CellObject;
  }
  for (const column of added) {
    const at = column.after + shiftOf(column.after) + 1;
    result[XLSX.utils.encode_cell({ r: headerRow, c: at })] = { t: 's', v: column.header };
    for (const [row, text] of column.values) result[XLSX.utils.encode_cell({ r: row, c: at })] = { t: 's', v: text };
  }
  result['!ref'] = XLSX.utils.encode_range({ s: range.s, e: { r: range.e.r, c: range.e.c + added.length } });
  const widths = sheet['!cols'];
  if (widths) {
    const moved: XLSX.ColInfo[] = [];
    widths.forEach((width, column) => { moved[column + shiftOf(column)] = width; });
    for (const column of added) moved[column.after + shiftOf(column.after) + 1] = { wch: Math.max(12, column.header.length + 2) };
    result['!cols'] = moved;
  }
  if (sheet['!merges']) {
    result['!merges'] = sheet['!merges'].map(({ s, e }) => ({ s: { r: s.r, c: s.c + shiftOf(s.c) }, e: { r: e.r, c: e.c + shiftOf(e.c) } }));
  }
  if (sheet['!rows']) result['!rows'] = sheet['!rows'];
  if (sheet['!margins']) result['!margins'] = sheet['!margins'];
  return result;
}

/** A sheet name not yet in the workbook: 'Resumen', else 'Resumen (2)'... (Excel allows 31 characters). */
export function freeSheetName(workbook: XLSX.WorkBook, wanted: string): string {
  return freeName(workbook.SheetNames, wanted);
}

/** The same among sheet names (a streamed workbook has no SheetJS WorkBook). */
export function freeName(names: readonly string[], wanted: string): string {
  const taken = new Set(names.map((name) => name.toLowerCase()));
  if (!taken.has(wanted.toLowerCase())) return wanted;
  for (let copy = 2; ; copy += 1) {
    const name = `${wanted} (${copy})`.slice(0, 31);
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** A sheet from rows of plain values (text, numbers, booleans; null for a blank cell). */
export function sheetFromRows(rows: readonly (readonly (string | number | boolean | null)[])[]): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet(rows.map((row) => [...row]));
  const widths = rows.reduce<number[]>((max, row) => {
    row.forEach((value, column) => { max[column] = Math.max(max[column] ?? 8, Math.min(60, String(value ?? '').length + 2)); });
    return max;
  }, []);
  sheet['!cols'] = widths.map((wch) => ({ wch }));
  return sheet;
}
