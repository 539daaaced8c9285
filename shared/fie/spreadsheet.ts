import * as XLSX from 'xlsx';
import { toFieDate } from './dates.ts';
import { EntryBuilder } from './entry-builder.ts';
import { FIE_CATALOGUE, FIELD_BY_CODE } from './layout.ts';
import { registryDateOf } from './registry-date.ts';
import type { FieDiagnostic, FieDocument, FieEntry, FieFieldDef } from './types.ts';

/** The header row is looked for among the first rows (FIER downloads carry a title row or two). */
export const HEADER_SEARCH_ROWS = 10;
const MIN_HEADER_MATCHES = 2;

export const UNREADABLE_SPREADSHEET = 'No se ha podido leer la hoja de cálculo';
export const NO_FIE_HEADER = 'La hoja de cálculo no tiene una fila de cabecera con códigos o nombres de campos del FIE';

/** A cell as SheetJS's sheet_to_json gives it raw: text, number, boolean, or null when empty. */
export type SheetCell = unknown;
type Cell = SheetCell;

function ignored(reason: string): FieDocument {
  return { format: 'spreadsheet', version: null, ignored: true, reason, registryDate: null, entries: [], diagnostics: [] };
}

/** Lower case, no accents, single spaces, no trailing '*' or ':' — how header labels are compared. */
function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[*:]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const DEF_BY_HEADER_KEY: ReadonlyMap<string, FieFieldDef> = new Map(
  FIE_CATALOGUE.flatMap((def) => [[headerKey(def.label), def] as const, [headerKey(def.ref), def] as const]),
);

/** The field a header cell names: by code ('1020', 1020, '1020 Fecha de baja') or by label. */
function defForHeader(cell: Cell): FieFieldDef | undefined {
  if (typeof cell === 'number') return FIELD_BY_CODE.get(cell);
  if (typeof cell !== 'string') return undefined;
  const code = /^\s*(\d{3,4})(?!\d)/.exec(cell)?.[1];
  if (code !== undefined) return FIELD_BY_CODE.get(Number(code));
  return DEF_BY_HEADER_KEY.get(headerKey(cell));
}

/** Column index -> field, for a row that names at least two catalogue fields; the first column naming a code wins. */
export function columnsOf(row: readonly Cell[]): Map<number, FieFieldDef> | null {
  const columns = new Map<number, FieFieldDef>();
  const seen = new Set<number>();
  row.forEach((cell, column) => {
    const def = defForHeader(cell);
    if (def && !seen.has(def.code)) {
      seen.add(def.code);
      columns.set(column, def);
    }
  });
  return columns.size >= MIN_HEADER_MATCHES ? columns : null;
}

/** A cell as the text the fixed-width layout would hold, so text and spreadsheet share one reader. */
function cellText(def: FieFieldDef, cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'boolean') return cell ? 'S' : 'N';
  if (typeof cell === 'number') return numberText(def, cell);
  if (typeof cell === 'string') return def.type === 'date' ? dateText(cell) : cell;
  return String(cell);
}

function numberText(def: FieFieldDef, value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (def.type === 'date') {
    // Either typed as AAAAMMDD, or a real date cell (an Excel serial day number).
    if (Number.isInteger(value) && value >= 10_000_000) return String(value);
    const parts = XLSX.SSF.parse_date_code(value);
    return parts ? toFieDate(parts.y, parts.m, parts.d) : String(value);
  }
  // A numeric cell loses leading zeros: '0111' régimen, '08' provincia, CCC of Álava.
  if (def.type === 'code' && Number.isInteger(value) && value >= 0) return String(value).padStart(def.length, '0');
  return String(value);
}

/** AAAAMMDD from 'dd/mm/yyyy' or 'yyyy-mm-dd' text; anything else is left for the reader to judge. */
function dateText(text: string): string {
  const trimmed = text.trim();
  const dayFirst = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (dayFirst) return toFieDate(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed);
  if (iso) return toFieDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  return trimmed;
}

function readWorkbook(data: Uint8Array | string): XLSX.WorkBook | null {
  try {
    return typeof data === 'string' ? XLSX.read(data, { type: 'string' }) : XLSX.read(data, { type: 'array' });
  } catch {
    // SheetJS throws on damaged or unsupported files; for the user that is "not readable", not a crash.
    return null;
  }
}

/** The sheet's rows and the 1-based number of the first; null when SheetJS cannot make rows of it. */
function sheetRows(sheet: XLSX.WorkSheet): { rows: Cell[][]; firstRow: number } | null {
  try {
    const range = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']) : null;
    const rows = XLSX.utils.sheet_to_json<Cell[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
    return { rows, firstRow: (range?.s.r ?? 0) + 1 };
  } catch {
    // A damaged file can parse into cells of unknown types, on which sheet_to_json throws (found by fuzz:fie).
    return null;
  }
}

/**
 * Decodes a FIE exported as a spreadsheet (.xls, .xlsx or SpreadsheetML XML): one entry per row under a
 * header row whose cells name field codes or labels. Never throws.
 */
export function decodeFieSpreadsheet(data: Uint8Array | string): FieDocument {
  const workbook = readWorkbook(data);
  if (!workbook) return ignored(UNREADABLE_SPREADSHEET);

  let readable = false;
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    const read = sheet ? sheetRows(sheet) : null;
    if (!read) continue;
    readable = true;
    const { rows, firstRow } = read;
    for (let headerIndex = 0; headerIndex < Math.min(rows.length, HEADER_SEARCH_ROWS); headerIndex += 1) {
      const columns = columnsOf(rows[headerIndex] ?? []);
      if (columns) return decodeRows(rows.slice(headerIndex + 1), columns, firstRow + headerIndex + 1);
    }
  }
  return ignored(readable ? NO_FIE_HEADER : UNREADABLE_SPREADSHEET);
}

/**
 * The entry of one row under the header (its bad values reported into `diagnostics` with its 1-based
 * row number), or null for a row with no field informed. `cellAt` gives the row's cell of a column.
 */
export function rowEntry(cellAt: (column: number) => Cell, columns: ReadonlyMap<number, FieFieldDef>, rowNumber: number, diagnostics: FieDiagnostic[]): FieEntry | null {
  const entry = new EntryBuilder(diagnostics);
  for (const [column, def] of columns) entry.setField(def, cellText(def, cellAt(column)), rowNumber);
  return entry.hasFields() ? entry.build() : null;
}

function decodeRows(rows: readonly Cell[][], columns: ReadonlyMap<number, FieFieldDef>, firstRowNumber: number): FieDocument {
  const diagnostics: FieDiagnostic[] = [];
  const entries: FieEntry[] = [];
  rows.forEach((row, index) => {
    const entry = rowEntry((column) => row[column], columns, firstRowNumber + index, diagnostics);
    if (entry !== null) entries.push(entry);
  });
  return {
    format: 'spreadsheet',
    version: null,
    ignored: false,
    registryDate: registryDateOf(entries.map((entry) => entry.fields)),
    entries,
    diagnostics,
  };
}
