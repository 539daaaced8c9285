import * as XLSX from 'xlsx';
import { flowDefinitionSchema, type MappedColumn } from '#shared/flows/definition.ts';
import type { Robot, RobotContext, RobotResult } from '#shared/flows/robot.ts';
import { toMadridParts } from '#shared/time/madrid.ts';
import definition from './flow.json' with { type: 'json' };
import { resolveColumns } from '../_lib/columns.ts';
import { cappedLog, progressReporter, stoppedResult, wrongInput } from '../_lib/run.ts';
import { baseName, headerKey } from '../_lib/text.ts';
import { cellAt, firstSheetTable, freeSheetName, readWorkbook, sheetFromRows, withAddedColumns, writeWorkbook } from '../_lib/workbook.ts';
import { REQUIRED_FIELDS, WORKER_FIELDS, altaKey, checkWorker, type RowCheck, type WorkerField } from './checks.ts';

/**
 * Comprobar datos para altas en RED: checks each worker of the first sheet with the rules Sistema RED
 * applies (checks.ts) and gives back the workbook as .xlsx with a 'Resultado' column ('Listo para RED'
 * or the row's problems, '; '-separated) and a 'Resumen' sheet. A sheet that already has a 'Resultado'
 * column (the output of an earlier check, corrected) gets it and its Resumen rewritten, not doubled.
 */

export const READY = 'Listo para RED';
const RESULT_HEADER = 'Resultado';
const SUMMARY_SHEET = 'Resumen';
const ROWS_PER_UNIT = 100;
const LOGGED_ROWS = 50;

const MAPPED_COLUMNS: readonly MappedColumn[] = flowDefinitionSchema
  .parse(definition)
  .sectionSetup.builder.flatMap((section) => section.builder)
  .find((input) => input.key === 'columns')?.config?.columns ?? [];

const LABELS = new Map(MAPPED_COLUMNS.map((column) => [column.key, column.label]));
const isWorkerField = (key: string): key is WorkerField => (WORKER_FIELDS as readonly string[]).includes(key);

async function run(context: RobotContext): Promise<RobotResult> {
  const file = context.files['workbook']?.[0];
  if (file === undefined) return wrongInput('Sube un libro de Excel, ODS o CSV con las altas.');
  const workbook = readWorkbook(file);
  if (workbook === null) return wrongInput(`No se ha podido leer «${file.name}»: comprueba que es un Excel, un ODS o un CSV.`);
  const table = firstSheetTable(workbook);
  if (table === null || table.dataRows.length === 0) {
    return wrongInput(`La primera hoja de «${file.name}» no tiene filas de datos debajo de la cabecera.`);
  }

  // An earlier 'Resultado' column is ours: it is rewritten, and never mistaken for a data column.
  const previousResult = table.headers.findIndex((header) => headerKey(header) === headerKey(RESULT_HEADER));
  const headers = table.headers.map((header, index) => (index === previousResult ? '' : header));
  const { found, notInSheet } = resolveColumns(headers, MAPPED_COLUMNS, context.inputs['columns']);
  for (const { column, header } of notInSheet) {
    context.log('warn', `La columna «${header}» elegida para ${column.label} no está en la hoja «${table.sheetName}».`);
  }
  const columnOf = new Map<WorkerField, number>();
  for (const item of found) if (isWorkerField(item.column.key)) columnOf.set(item.column.key, item.index);
  const missing = REQUIRED_FIELDS.filter((field) => !columnOf.has(field));
  if (missing.length > 0) {
    const names = missing.map((field) => LABELS.get(field) ?? field).join(', ');
    return wrongInput(`Faltan columnas en la hoja «${table.sheetName}»: ${names}. Usa la plantilla o indica qué columna tiene cada dato.`);
  }
  if (!columnOf.has('tipoDocumento')) context.log('warn', 'No hay columna de tipo de documento: cada documento debe ser un NIF o un NIE.');

  const { year, month, day } = toMadridParts(context.startedAt);
  const today = { year, month, day };
  const columns = new Set(columnOf.keys());
  const rows = table.dataRows;
  context.log('info', `Hoja «${table.sheetName}»: ${rows.length} ${rows.length === 1 ? 'alta' : 'altas'} que comprobar.`);

  const results = new Map<number, string>();
  const problemsByField = new Map<WorkerField, number>();
  const firstRowOf = new Map<string, number>();
  const report = progressReporter(context, rows.length);
  const rowLog = cappedLog(context, LOGGED_ROWS);
  let ready = 0;
  for (const [done, row] of rows.entries()) {
    if (context.signal.aborted) return stoppedResult();
    const cells: RowCheck['cells'] = {};
    for (const [field, column] of columnOf) cells[field] = cellAt(table.sheet, row, column);
    const problems = checkWorker({ cells, columns, today });
    const key = altaKey({ cells });
    const earlier = key === null ? undefined : firstRowOf.get(key);
    if (earlier !== undefined) problems.push({ field: 'documento', message: `Repetida: el mismo documento y CCC están en la fila ${earlier + 1}` });
    else if (key !== null) firstRowOf.set(key, row);

    if (problems.length === 0) {
      ready += 1;
      results.set(row, READY);
    } else {
      const text = problems.map((problem) => problem.message).join('; ');
      results.set(row, text);
      rowLog.warn(`Fila ${row + 1}: ${text}`);
      for (const field of new Set(problems.map((problem) => problem.field))) problemsByField.set(field, (problemsByField.get(field) ?? 0) + 1);
    }
    report(done + 1);
  }
  rowLog.finish('filas con problemas');

  if (previousResult >= 0) {
    for (const row of rows) table.sheet[XLSX.utils.encode_cell({ r: row, c: previousResult })] = { t: 's', v: results.get(row) ?? '' };
  } else {
    const lastColumn = table.headers.length - 1;
    workbook.Sheets[table.sheetName] = withAddedColumns(table.sheet, table.headerRow, [{ after: lastColumn, header: RESULT_HEADER, values: results }]);
  }
  const withProblems = rows.length - ready;
  const summaryRows: (string | number | null)[][] = [
    ['Filas comprobadas', rows.length],
    ['Listas para RED', ready],
    ['Con problemas', withProblems],
    [null, null],
    ['Dato', 'Filas con problemas'],
    ...WORKER_FIELDS.filter((field) => problemsByField.has(field)).map((field) => [LABELS.get(field) ?? field, problemsByField.get(field) ?? 0]),
  ];
  const summarySheet = sheetFromRows(summaryRows);
  // A workbook that already went through this check has our Resumen: it is replaced, not doubled.
  if (previousResult >= 0 && workbook.SheetNames.includes(SUMMARY_SHEET)) workbook.Sheets[SUMMARY_SHEET] = summarySheet;
  else XLSX.utils.book_append_sheet(workbook, summarySheet, freeSheetName(workbook, SUMMARY_SHEET));

  context.log(withProblems === 0 ? 'info' : 'warn', `${ready} de ${rows.length} ${rows.length === 1 ? 'alta lista' : 'altas listas'} para RED; ${withProblems} con problemas.`);
  return {
    result: 'Success',
    usageUnits: Math.ceil(rows.length / ROWS_PER_UNIT),
    outputs: [{ name: `${baseName(file.name)} comprobado RED.xlsx`, data: writeWorkbook(workbook) }],
    summary: { Filas: rows.length, 'Listas para RED': ready, 'Con problemas': withProblems },
  };
}

const robot: Robot = { run };
export default robot;
