import { FIELD_BY_CODE } from '../fie/layout.ts';
import type { CellValue, SheetWriter } from '../spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '../spreadsheet/xlsx-writer.ts';
import type { A3SyncRecord } from './sync-record.ts';

/**
 * The A3 incidences sheet ('Incidencias'): one A3 sync record per row, the spec's columns (§3, A3 sync
 * record) in the spec's order under Spanish headers, yes/no as 'Sí'/'No', dates dd/mm/yyyy. The robot
 * 'FIE a incidencias A3' and the FIE module's export (server/modules/fie) both write it from here, so
 * the workbook a user gets from either has the same columns.
 */

export const INCIDENCIAS_SHEET = 'Incidencias';

/** The A3 sync record columns (spec §3), in this order; the aliases (date, incidenceCode, workerDNI) are left out. */
export const A3_COLUMNS = [
  'fieId', 'dniEmpleado', 'nombreEmpresa', 'fechaFormateada', 'incidencia', 'carencia', 'contingencia', 'ccc',
  'formatedccc', 'diasAcumulados', 'fechaBajaBajaDuracion', 'incidenciaBajaBajaDuracion', 'canceled',
] as const satisfies readonly (keyof A3SyncRecord)[];

export type A3Column = (typeof A3_COLUMNS)[number];

/** The header of each A3_COLUMNS column in 'Incidencias'. */
export const A3_HEADERS: Readonly<Record<A3Column, string>> = {
  fieId: 'Archivo',
  dniEmpleado: 'DNI/NIE',
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
export const INCIDENCIAS_HEADER: readonly string[] = A3_COLUMNS.map((column) => A3_HEADERS[column]);

/** One row of 'Incidencias': the record's values in A3_COLUMNS order, true/false as 'Sí'/'No'. */
export function recordRow(record: A3SyncRecord): CellValue[] {
  return A3_COLUMNS.map((column) => {
    const value = record[column];
    return typeof value === 'boolean' ? (value ? 'Sí' : 'No') : value;
  });
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
  const longest: Readonly<Record<A3Column, number>> = {
    fieId: fieIdLength,
    dniEmpleado: 9,
    nombreEmpresa: FIELD_BY_CODE.get(530)?.length ?? 55,
    fechaFormateada: 10,
    incidencia: 2,
    carencia: 2,
    contingencia: 1,
    ccc: 11,
    formatedccc: 13,
    diasAcumulados: 4,
    fechaBajaBajaDuracion: 10,
    incidenciaBajaBajaDuracion: 2,
    canceled: 2,
  };
  return A3_COLUMNS.map((column) => columnWidth(Math.max(A3_HEADERS[column].length, longest[column])));
}

/** Opens 'Incidencias' in `book` with its widths and header row; the caller writes the rows and ends it. */
export function openIncidenciasSheet(book: XlsxWriter, fieIdLength: number): SheetWriter {
  const sheet = book.addSheet(INCIDENCIAS_SHEET, incidenciasWidths(fieIdLength));
  sheet.row(INCIDENCIAS_HEADER);
  return sheet;
}

/** A workbook of 'Incidencias' alone, with one row per record (the FIE module's export). */
export function incidenciasWorkbook(records: readonly A3SyncRecord[]): Uint8Array {
  const book = new XlsxWriter();
  const sheet = openIncidenciasSheet(book, Math.max(0, ...records.map((record) => (record.fieId ?? '').length)));
  for (const record of records) sheet.row(recordRow(record));
  sheet.end();
  return book.finish();
}
