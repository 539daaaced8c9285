import type * as XLSX from 'xlsx';
import { flowDefinitionSchema, type MappedColumn } from '#shared/flows/definition.ts';
import type { RobotContext, RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { identifierProblem } from '#shared/validation/identifier-problems.ts';
import { validate } from '#shared/validation/validate.ts';
import definition from './flow.json' with { type: 'json' };
import type { FoundColumn } from '../_lib/columns.ts';
import { zerosLostByExcel, zerosLostMessage } from '../_lib/identifiers.ts';
import { baseName } from '../_lib/text.ts';

/** What both paths of the robot (robot.ts in memory, stream.ts streamed) check, count and answer alike. */

export const VALID = 'OK';
export const EMPTY = 'Vacío';
const ROWS_PER_UNIT = 100;
export const LOGGED_ERRORS = 50;

/** The mappable columns and their rules come from flow.json, so the form and the robot agree. */
export const MAPPED_COLUMNS: readonly MappedColumn[] = flowDefinitionSchema
  .parse(definition)
  .sectionSetup.builder.flatMap((section) => section.builder)
  .find((input) => input.key === 'columns')?.config?.columns ?? [];

/** Identifiers made of digits only, whose leading zeros Excel drops when the cell holds a number. */
const DIGITS_ONLY_LENGTH: Readonly<Record<string, number>> = { naf: 12, nafcontrol: 12, ccc: 11 };

export interface ColumnCounts {
  found: FoundColumn;
  valid: number;
  invalid: number;
  empty: number;
  results: Map<number, string>;
}

/** 'OK', 'Vacío' or what is wrong with the value (and what it should be, where that can be worked out); `number`: the cell holds a number (Excel may have dropped zeros). */
export function checkText(text: string, number: boolean, rule: string): string {
  if (text === '') return EMPTY;
  const result = validate(text, rule);
  if (result.valid) return VALID;
  const length = DIGITS_ONLY_LENGTH[rule];
  const cell: XLSX.CellObject = { t: number ? 'n' : 's', v: text, w: text };
  const padded = length === undefined ? null : zerosLostByExcel(cell, length, (digits) => validate(digits, rule).valid);
  if (padded !== null) return zerosLostMessage(padded);
  return identifierProblem(text, rule) ?? result.message ?? 'El formato introducido no es válido';
}

export function summaryRows(counts: readonly ColumnCounts[]): (string | number)[][] {
  return [
    ['Columna', 'Dato', 'Comprobados', 'Válidos', 'No válidos', 'Vacíos'],
    ...counts.map(({ found, valid, invalid, empty }) => [found.header, found.column.label, valid + invalid, valid, invalid, empty]),
  ];
}

/** The last log line and the result, the same whichever path read the file. */
/** Whether a row's results hold a wrong value (an empty cell is not one). */
export function rowHasErrors(results: Iterable<string>): boolean {
  for (const result of results) if (result !== VALID && result !== EMPTY) return true;
  return false;
}

/**
 * The run's end. Its last progress counts rows, not work done: successful = rows with no wrong value,
 * total = rows checked, so the history's 'Sin errores' reads 16 de 31 when 15 rows had errors, never
 * 31 de 31 (issue 21). The summary says it in words: rows checked, valid and with errors.
 */
/** The output's name: 'plantilla validado.xlsx' for 'plantilla.csv'. */
export function outputName(file: Pick<RobotFile, 'name'>): string {
  return `${baseName(file.name)} validado.xlsx`;
}

/** `outputs`: the workbook given as bytes (the in-memory path), or nothing when it was written through context.output. */
export function finished(context: RobotContext, rows: number, counts: readonly ColumnCounts[], outputs: RobotFile[], rowsWithErrors: number): RobotResult {
  const invalid = counts.reduce((sum, column) => sum + column.invalid, 0);
  const valid = counts.reduce((sum, column) => sum + column.valid, 0);
  const empty = counts.reduce((sum, column) => sum + column.empty, 0);
  const validRows = rows - rowsWithErrors;
  context.log(invalid === 0 ? 'info' : 'warn', `Comprobados ${valid + invalid} valores: ${valid} válidos, ${invalid} no válidos y ${empty} celdas vacías.`);
  context.log(rowsWithErrors === 0 ? 'info' : 'warn', `Filas revisadas: ${rows} · válidas: ${validRows} · con errores: ${rowsWithErrors}.`);
  context.progress(validRows, rows);
  return {
    result: 'Success',
    usageUnits: Math.ceil(rows / ROWS_PER_UNIT),
    outputs,
    summary: {
      'Filas revisadas': rows,
      'Filas válidas': validRows,
      'Filas con errores': rowsWithErrors,
      Columnas: counts.length,
      'Valores válidos': valid,
      'Valores no válidos': invalid,
      'Celdas vacías': empty,
    },
  };
}

