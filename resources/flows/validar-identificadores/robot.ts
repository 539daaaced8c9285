import * as XLSX from 'xlsx';
import { fileExtension } from '#shared/files/types.ts';
import type { Robot, RobotContext, RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { resolveColumns } from '../_lib/columns.ts';
import { fileSize } from '../_lib/files.ts';
import { cappedLog, progressReporter, stoppedResult, wrongInput } from '../_lib/run.ts';
import { checkText, EMPTY, finished, LOGGED_ERRORS, outputName, rowHasErrors, MAPPED_COLUMNS, summaryRows, VALID, type ColumnCounts } from './check.ts';
import { validateCsvStreamed } from './csv-stream.ts';
import { validateStreamed } from './stream.ts';
import { cellAt, cellText, firstSheetTable, freeSheetName, readWorkbook, sheetFromRows, withAddedColumns, writeWorkbook } from '../_lib/workbook.ts';

/**
 * Validar identificadores: checks the NIF/NIE, NAF, IBAN and CCC columns of a workers' workbook with
 * the validators of shared/validation and gives back the same workbook (every sheet kept, as .xlsx)
 * with 'Resultado <header>' after each checked column of the first sheet and a 'Resumen' sheet.
 *
 * Empty cells are not validated: an IBAN left blank is usually "not known yet", not a wrong IBAN. They
 * read 'Vacío' in the result column and are counted apart in the summary, so they are neither hidden
 * nor mixed with the errors.
 */

export { EMPTY, VALID } from './check.ts';

/**
 * Which path reads the file: an .xlsx (or .xlsm) or a CSV of STREAM_FROM_BYTES or more streams
 * (stream.ts, csv-stream.ts: rows read and written one by one, memory flat however many rows); smaller
 * ones, .xls and .ods go through SheetJS in memory, which is quick at that size and reads every format.
 */
export const STREAM_FROM_BYTES = 256 * 1024;
const STREAMED_EXTENSIONS = new Set(['xlsx', 'xlsm']);
const CSV_EXTENSIONS = new Set(['csv', 'txt']);

async function run(context: RobotContext): Promise<RobotResult> {
  const file = context.files['workbook']?.[0];
  if (file === undefined) return wrongInput('Sube un libro de Excel, ODS o CSV con los trabajadores.');
  const extension = fileExtension(file.name);
  if (fileSize(file) >= STREAM_FROM_BYTES) {
    if (STREAMED_EXTENSIONS.has(extension)) return validateStreamed(context, file);
    if (CSV_EXTENSIONS.has(extension)) return validateCsvStreamed(context, file);
  }
  return validateInMemory(context, file);
}

/** The whole workbook read by SheetJS, validated, and written back. */
export async function validateInMemory(context: RobotContext, file: RobotFile): Promise<RobotResult> {
  const workbook = readWorkbook(file);
  if (workbook === null) return wrongInput(`No se ha podido leer «${file.name}»: comprueba que es un Excel, un ODS o un CSV.`);
  const table = firstSheetTable(workbook);
  if (table === null || table.dataRows.length === 0) {
    return wrongInput(`La primera hoja de «${file.name}» no tiene filas de datos debajo de la cabecera.`);
  }

  const { found, detected, notInSheet } = resolveColumns(table.headers, MAPPED_COLUMNS, context.inputs['columns']);
  for (const { column, header } of notInSheet) {
    context.log('warn', `La columna «${header}» elegida para ${column.label} no está en la hoja «${table.sheetName}».`);
  }
  if (found.length === 0) {
    return wrongInput(
      detected
        ? `No se ha encontrado ninguna columna de NIF/NIE, NAF, IBAN o CCC en la hoja «${table.sheetName}»: indica qué columna tiene cada dato.`
        : `Ninguna de las columnas elegidas está en la hoja «${table.sheetName}».`,
    );
  }

  const rows = table.dataRows;
  context.log('info', `Hoja «${table.sheetName}»: ${rows.length} ${rows.length === 1 ? 'fila' : 'filas'} con datos.`);
  context.log('info', `Columnas ${detected ? 'encontradas por su cabecera' : 'elegidas'}: ${found.map((item) => `${item.column.label} («${item.header}»)`).join(', ')}.`);

  const counts: ColumnCounts[] = found.map((item) => ({ found: item, valid: 0, invalid: 0, empty: 0, results: new Map() }));
  const report = progressReporter(context, rows.length);
  const errors = cappedLog(context, LOGGED_ERRORS);
  let rowsWithErrors = 0;
  for (const [done, row] of rows.entries()) {
    if (context.signal.aborted) return stoppedResult();
    const rowResults: string[] = [];
    for (const column of counts) {
      const cell = cellAt(table.sheet, row, column.found.index);
      const result = checkText(cellText(cell), cell?.t === 'n', column.found.column.validate ?? '');
      column.results.set(row, result);
      rowResults.push(result);
      if (result === VALID) column.valid += 1;
      else if (result === EMPTY) column.empty += 1;
      else {
        column.invalid += 1;
        errors.warn(`Fila ${row + 1}, ${column.found.column.label} «${cellText(cell)}»: ${result}`);
      }
    }
    if (rowHasErrors(rowResults)) rowsWithErrors += 1;
    report(done + 1);
  }
  errors.finish('valores no válidos');

  const added = counts.map(({ found: item, results }) => ({ after: item.index, header: `Resultado ${item.header}`, values: results }));
  workbook.Sheets[table.sheetName] = withAddedColumns(table.sheet, table.headerRow, added);
  XLSX.utils.book_append_sheet(workbook, sheetFromRows(summaryRows(counts)), freeSheetName(workbook, 'Resumen'));

  return finished(context, rows.length, counts, [{ name: outputName(file), data: writeWorkbook(workbook) }], rowsWithErrors);
}

const robot: Robot = { run };
export default robot;
