import { FIELD_BY_CODE } from '../fie/layout.ts';
import type { FieEntryRead } from '../fie/slot-entry.ts';
import type { CellKind, CellValue, SheetWriter } from '../spreadsheet/sheet-xml.ts';
import { excelDay } from '../spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '../spreadsheet/xlsx-writer.ts';
import type { A3SyncRecord } from './sync-record.ts';

/**
 * The A3 incidences sheet ('Incidencias'): one row per parte, the A3 sync record's columns (spec §3, A3
 * sync record) in the spec's order under Spanish headers, with the worker's name after the DNI/NIE. The
 * robot 'FIE a incidencias A3' and the FIE module's export (server/modules/fie) both write it from here,
 * so the workbook a user gets from either has the same columns.
 *
 * A row is the record beside its entry (the record itself is what the A3 sync sends, and stays as the
 * spec has it): the name comes from the entry, carencia as the FIE says it (S 'Sí', N 'No', P
 * 'Pendiente': the record's boolean would read P as 'No'), the dates as date cells (an Excel serial day
 * shown dd/mm/yyyy, so a sheet sorts and filters them as dates), 'Anulado' as 'Sí'/'No'.
 */

export const INCIDENCIAS_SHEET = 'Incidencias';

/** The A3 sync record columns (spec §3), in this order; the aliases (date, incidenceCode, workerDNI) are left out. */
export const A3_COLUMNS = [
  'fieId', 'dniEmpleado', 'nombreEmpresa', 'fechaFormateada', 'incidencia', 'carencia', 'contingencia', 'ccc',
  'formatedccc', 'diasAcumulados', 'fechaBajaBajaDuracion', 'incidenciaBajaBajaDuracion', 'canceled',
] as const satisfies readonly (keyof A3SyncRecord)[];

export type A3Column = (typeof A3_COLUMNS)[number];

/** The columns of 'Incidencias': the record's, with the worker's name ('trabajador', from the entry) after the DNI/NIE. */
export const INCIDENCIAS_COLUMNS = [
  'fieId', 'dniEmpleado', 'trabajador', 'nombreEmpresa', 'fechaFormateada', 'incidencia', 'carencia', 'contingencia', 'ccc',
  'formatedccc', 'diasAcumulados', 'fechaBajaBajaDuracion', 'incidenciaBajaBajaDuracion', 'canceled',
] as const satisfies readonly (A3Column | 'trabajador')[];

export type IncidenciasColumn = (typeof INCIDENCIAS_COLUMNS)[number];

/** The header of each column in 'Incidencias'. */
export const A3_HEADERS: Readonly<Record<IncidenciasColumn, string>> = {
  fieId: 'Archivo',
  dniEmpleado: 'DNI/NIE',
  trabajador: 'Trabajador',
  nombreEmpresa: 'Empresa',
  fechaFormateada: 'Fecha',
  incidencia: 'Incidencia',
  carencia: 'Carencia',
  contingencia: 'Contingencia',
  ccc: 'CCC',
  formatedccc: 'CCC formateado',
  diasAcumulados: 'Días acumulados',
  fechaBajaBajaDuracion: 'Fecha de la baja (alta corta)',
  incidenciaBajaBajaDuracion: 'Incidencia de la baja (alta corta)',
  canceled: 'Anulado',
};

/** The header row of 'Incidencias'. */
export const INCIDENCIAS_HEADER: readonly string[] = INCIDENCIAS_COLUMNS.map((column) => A3_HEADERS[column]);

/** Each column's 0-based index in 'Incidencias'. */
const AT = Object.fromEntries(INCIDENCIAS_COLUMNS.map((column, index) => [column, index])) as Readonly<Record<IncidenciasColumn, number>>;

/** Each column's CellKind: the two dates are date cells. */
export const INCIDENCIAS_KINDS: readonly (CellKind | undefined)[] = INCIDENCIAS_COLUMNS.map((column) =>
  column === 'fechaFormateada' || column === 'fechaBajaBajaDuracion' ? 'date' : undefined,
);

/**
 * Carencia (field 1100) as the FIE says it, in the sheet's words (shared/fie/tables.ts carencia: S 'Se
 * acredita carencia', N 'No se acredita carencia', P 'Pendiente de la Dirección Provincial del INSS').
 */
export const CARENCIA_WORDS: Readonly<Record<string, string>> = { S: 'Sí', N: 'No', P: 'Pendiente' };

/** What a row is built from beside the record: the entry's name and fields (a FieEntry, or the text reader's slot view). */
export type IncidenciasEntry = Pick<FieEntryRead, 'fullname' | 'fields'>;

/** The digit at `at` of `text`, or -1 when it is not an ASCII digit. */
function digitAt(text: string, at: number): number {
  const digit = text.charCodeAt(at) - 48;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

/** The number of text[start, end) when it is all ASCII digits, else -1. */
function digitsAt(text: string, start: number, end: number): number {
  let number = 0;
  for (let at = start; at < end; at += 1) {
    const digit = digitAt(text, at);
    if (digit < 0) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/**
 * The Excel serial day of a record's dd/mm/yyyy (shared/spreadsheet excelDay), or null when it is none;
 * read by character codes, so a row's dates make no garbage.
 */
export function dayMonthYearSerial(text: string | null): number | null {
  if (text === null || text.length !== 10 || text.charCodeAt(2) !== 47 || text.charCodeAt(5) !== 47) return null;
  const day = digitsAt(text, 0, 2);
  const month = digitsAt(text, 3, 5);
  const year = digitsAt(text, 6, 10);
  return day >= 1 && day <= 31 && month >= 1 && month <= 12 && year >= 1900 ? excelDay(year, month, day) : null;
}

/** Carencia as 'Sí', 'No' or 'Pendiente' (CARENCIA_WORDS); another code as written, none as an empty cell. */
export function carenciaWord(entry: IncidenciasEntry): string | null {
  // The value is trimmed as read (FieField.value).
  const code = entry.fields[1100]?.value ?? '';
  return code === '' ? null : (CARENCIA_WORDS[code] ?? code);
}

/**
 * Fills `row` with the row of 'Incidencias' of this record and its entry, in INCIDENCIAS_COLUMNS order,
 * and gives it back. The robot passes the same array for every row (the sheet writes a row as it is
 * given, and keeps nothing of it): a million partes make no million arrays.
 */
export function fillIncidenciasRow(row: CellValue[], record: A3SyncRecord, entry: IncidenciasEntry): CellValue[] {
  row[AT.fieId] = record.fieId;
  row[AT.dniEmpleado] = record.dniEmpleado;
  row[AT.trabajador] = entry.fullname === '' ? null : entry.fullname;
  row[AT.nombreEmpresa] = record.nombreEmpresa;
  row[AT.fechaFormateada] = dayMonthYearSerial(record.fechaFormateada);
  row[AT.incidencia] = record.incidencia;
  row[AT.carencia] = carenciaWord(entry);
  row[AT.contingencia] = record.contingencia;
  row[AT.ccc] = record.ccc;
  row[AT.formatedccc] = record.formatedccc;
  row[AT.diasAcumulados] = record.diasAcumulados;
  row[AT.fechaBajaBajaDuracion] = dayMonthYearSerial(record.fechaBajaBajaDuracion);
  row[AT.incidenciaBajaBajaDuracion] = record.incidenciaBajaBajaDuracion;
  row[AT.canceled] = record.canceled ? 'Sí' : 'No';
  return row;
}

/** A new row of 'Incidencias' of this record and its entry (fillIncidenciasRow into a new array). */
export function incidenciasRow(record: A3SyncRecord, entry: IncidenciasEntry): CellValue[] {
  return fillIncidenciasRow(new Array<CellValue>(INCIDENCIAS_COLUMNS.length), record, entry);
}

/** A column width as sheets size them from their text: 2 more than the text, between 8 and 60. */
export function columnWidth(characters: number): number {
  return Math.max(8, Math.min(60, characters + 2));
}

/**
 * Column widths of 'Incidencias', which must be written before its rows: the widest value each column can
 * hold (`fieIdLength` for the first column, the FIE field's width for the company name, the fixed shapes
 * of the others).
 */
export function incidenciasWidths(fieIdLength: number): number[] {
  const longest: Readonly<Record<IncidenciasColumn, number>> = {
    fieId: fieIdLength,
    dniEmpleado: 9,
    // Nombre, primer and segundo apellido, with a space between them.
    trabajador: [840, 820, 830].reduce((sum, code) => sum + (FIELD_BY_CODE.get(code)?.length ?? 20), 2),
    nombreEmpresa: FIELD_BY_CODE.get(530)?.length ?? 55,
    fechaFormateada: 10,
    incidencia: 2,
    carencia: 9,
    contingencia: 1,
    ccc: 11,
    formatedccc: 13,
    diasAcumulados: 4,
    fechaBajaBajaDuracion: 10,
    incidenciaBajaBajaDuracion: 2,
    canceled: 2,
  };
  return INCIDENCIAS_COLUMNS.map((column) => columnWidth(Math.max(A3_HEADERS[column].length, longest[column])));
}

/** Opens 'Incidencias' in `book` with its widths and header row; the caller writes the rows and ends it. */
export function openIncidenciasSheet(book: XlsxWriter, fieIdLength: number): SheetWriter {
  const sheet = book.addSheet(INCIDENCIAS_SHEET, incidenciasWidths(fieIdLength), INCIDENCIAS_KINDS);
  sheet.row(INCIDENCIAS_HEADER);
  return sheet;
}

/** A workbook of 'Incidencias' alone, with one row per parte: its record beside its entry (the FIE module's export). */
export function incidenciasWorkbook(partes: readonly { record: A3SyncRecord; entry: IncidenciasEntry }[]): Uint8Array {
  const book = new XlsxWriter();
  const sheet = openIncidenciasSheet(book, partes.reduce((longest, { record }) => Math.max(longest, (record.fieId ?? '').length), 0));
  const row: CellValue[] = [];
  for (const { record, entry } of partes) sheet.row(fillIncidenciasRow(row, record, entry));
  sheet.end();
  return book.finish();
}
