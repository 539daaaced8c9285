import type { A3AltaRow } from '../api/altas.ts';
import type { CellValue } from '../spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '../spreadsheet/xlsx-writer.ts';
import { columnWidth } from './incidences-sheet.ts';

/**
 * A3's '202 – MA – Alta sucesiva' import workbook (research external-systems §4): one worker's alta per
 * row, written by the desktop into A3's import folder (main/a3/altas-import.ts). A3's template headers are
 * not public, so the headers are ours, named as a3's alta screen names the fields; `Referencia` is the
 * submission, so each row of the importer's answer comes back to its registration. Dates dd/mm/aaaa as the
 * IT import has them.
 */

export const ALTAS_SHEET = '202 - MA';

/** A3AltaRow's fields in the workbook's order. */
export const ALTAS_COLUMNS = [
  'submissionId', 'ccc', 'nif', 'naf', 'primerApellido', 'segundoApellido', 'nombre', 'fechaAlta', 'tipoContrato',
  'grupoCotizacion', 'coeficienteParcialidad', 'convenio', 'ocupacion', 'categoria', 'fechaNacimiento', 'sexo',
] as const satisfies readonly (keyof A3AltaRow)[];

export type AltasColumn = (typeof ALTAS_COLUMNS)[number];

export const ALTAS_HEADERS: Readonly<Record<AltasColumn, string>> = {
  submissionId: 'Referencia',
  ccc: 'CCC',
  nif: 'NIF trabajador',
  naf: 'NAF',
  primerApellido: 'Primer apellido',
  segundoApellido: 'Segundo apellido',
  nombre: 'Nombre',
  fechaAlta: 'Fecha de alta',
  tipoContrato: 'Tipo de contrato',
  grupoCotizacion: 'Grupo de cotización',
  coeficienteParcialidad: 'Coeficiente de parcialidad',
  convenio: 'Código de convenio',
  ocupacion: 'CNO',
  categoria: 'Categoría',
  fechaNacimiento: 'Fecha de nacimiento',
  sexo: 'Sexo',
};

export const ALTAS_HEADER: readonly string[] = ALTAS_COLUMNS.map((column) => ALTAS_HEADERS[column]);

/** RedAltaRecord's sexo codes as a3 shows them. */
export const A3_SEXO: Readonly<Record<string, string>> = { '1': 'Hombre', '2': 'Mujer' };

const DATE_COLUMNS: ReadonlySet<AltasColumn> = new Set(['fechaAlta', 'fechaNacimiento']);

/** 'yyyy-mm-dd' as 'dd/mm/aaaa'; anything else as it is (the importer refuses what it cannot read). */
export function a3Date(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}

/** One row of the workbook, in ALTAS_COLUMNS order. */
export function altaSheetRow(row: A3AltaRow): CellValue[] {
  return ALTAS_COLUMNS.map((column) => {
    const value = row[column];
    if (DATE_COLUMNS.has(column)) return a3Date(value);
    if (column === 'sexo') return A3_SEXO[value] ?? value;
    return value;
  });
}

/** The workbook A3 imports: its header and one row per alta, every cell text (codes keep their zeros). */
export function altasWorkbook(rows: readonly A3AltaRow[]): Uint8Array {
  const book = new XlsxWriter();
  const widths = ALTAS_COLUMNS.map((column) => columnWidth(Math.max(ALTAS_HEADERS[column].length, ...rows.map((row) => row[column].length))));
  const sheet = book.addSheet(ALTAS_SHEET, widths);
  sheet.row(ALTAS_HEADER);
  for (const row of rows) sheet.row(altaSheetRow(row));
  sheet.end();
  return book.finish();
}
