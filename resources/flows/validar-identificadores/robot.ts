import * as XLSX from 'xlsx';
import { flowDefinitionSchema, type MappedColumn } from '#shared/flows/definition.ts';
import type { Robot, RobotContext, RobotResult } from '#shared/flows/robot.ts';
import { validate } from '#shared/validation/validate.ts';
import definition from './flow.json' with { type: 'json' };
import { resolveColumns, type FoundColumn } from '../_lib/columns.ts';
import { zerosLostByExcel, zerosLostMessage } from '../_lib/identifiers.ts';
import { cappedLog, progressReporter, stoppedResult, wrongInput } from '../_lib/run.ts';
import { baseName } from '../_lib/text.ts';
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

export const VALID = 'OK';
export const EMPTY = 'Vacío';
const ROWS_PER_UNIT = 100;
const LOGGED_ERRORS = 50;

/** The mappable columns and their rules come from flow.json, so the form and the robot agree. */
const MAPPED_COLUMNS: readonly MappedColumn[] = flowDefinitionSchema
  .parse(definition)
  .sectionSetup.builder.flatMap((section) => section.builder)
  .find((input) => input.key === 'columns')?.config?.columns ?? [];

/** Identifiers made of digits only, whose leading zeros Excel drops when the cell holds a number. */
const DIGITS_ONLY_LENGTH: Readonly<Record<string, number>> = { naf: 12, nafcontrol: 12, ccc: 11 };

interface ColumnCounts {
  found: FoundColumn;
  valid: number;
  invalid: number;
  empty: number;
  results: Map<number, string>;
}

/** 'OK', 'Vacío' or the reason the value fails its rule. */
function checkCell(cell: XLSX.CellObject | undefined, rule: string): string {
  const text = cellText(cell);
  if (text === '') return EMPTY;
  const result = validate(text, rule);
  if (result.valid) return VALID;
  const length = DIGITS_ONLY_LENGTH[rule];
  const padded = length === undefined ? null : zerosLostByExcel(cell, length, (digits) => validate(digits, rule).valid);
  if (padded !== null) return zerosLostMessage(padded);
  return result.message ?? 'El formato introducido no es válido';
}

function summaryRows(counts: readonly ColumnCounts[]): (string | number)[][] {
  return [
    ['Columna', 'Dato', 'Comprobados', 'Válidos', 'No válidos', 'Vacíos'],
    ...counts.map(({ found, valid, invalid, empty }) => [found.header, found.column.label, valid + invalid, valid, invalid, empty]),
  ];
}

async function run(context: RobotContext): Promise<RobotResult> {
  const file = context.files['workbook']?.[0];
  if (file === undefined) return wrongInput('Sube un libro de Excel, ODS o CSV con los trabajadores.');
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
  for (const [done, row] of rows.entries()) {
    if (context.signal.aborted) return stoppedResult();
    for (const column of counts) {
      const cell = cellAt(table.sheet, row, column.found.index);
      const result = checkCell(cell, column.found.column.validate ?? '');
      column.results.set(row, result);
      if (result === VALID) column.valid += 1;
      else if (result === EMPTY) column.empty += 1;
      else {
        column.invalid += 1;
        errors.warn(`Fila ${row + 1}, ${column.found.column.label} «${cellText(cell)}»: ${result}`);
      }
    }
    report(done + 1);
  }
  errors.finish('valores no válidos');

  const added = counts.map(({ found: item, results }) => ({ after: item.index, header: `Resultado ${item.header}`, values: results }));
  workbook.Sheets[table.sheetName] = withAddedColumns(table.sheet, table.headerRow, added);
  XLSX.utils.book_append_sheet(workbook, sheetFromRows(summaryRows(counts)), freeSheetName(workbook, 'Resumen'));

  const invalid = counts.reduce((sum, column) => sum + column.invalid, 0);
  const valid = counts.reduce((sum, column) => sum + column.valid, 0);
  const empty = counts.reduce((sum, column) => sum + column.empty, 0);
  context.log(invalid === 0 ? 'info' : 'warn', `Comprobados ${valid + invalid} valores: ${valid} válidos, ${invalid} no válidos y ${empty} celdas vacías.`);
  return {
    result: 'Success',
    usageUnits: Math.ceil(rows.length / ROWS_PER_UNIT),
    outputs: [{ name: `${baseName(file.name)} validado.xlsx`, data: writeWorkbook(workbook) }],
    summary: { Filas: rows.length, Columnas: counts.length, 'Valores válidos': valid, 'Valores no válidos': invalid, 'Celdas vacías': empty },
  };
}

const robot: Robot = { run };
export default robot;
