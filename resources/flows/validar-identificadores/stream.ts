import type { RobotContext, RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import { resolveColumns, type ColumnResolution } from '../_lib/columns.ts';
import { openOutput } from '../_lib/outputs.ts';
import { cappedLog, stoppedResult, wrongInput } from '../_lib/run.ts';
import { freeName } from '../_lib/workbook.ts';
import { rewriteWorkbook, type TablePlan } from '../_lib/workbook-stream.ts';
import { checkText, EMPTY, finished, outputName, rowHasErrors, LOGGED_ERRORS, MAPPED_COLUMNS, summaryRows, VALID, type ColumnCounts } from './check.ts';

/**
 * The robot on a large .xlsx, streamed (_lib/workbook-stream.ts): each row is checked as it is read and
 * written at once with its results to the run's output (context.output: to storage as it is written):
 * memory holds the file and the shared strings, never the rows nor the output (scripts/bench/validar-bench.ts).
 * An output refused half-way (no data rows, no column to check, a stop) is never closed, so not kept.
 * Same output, summary and log as the in-memory path (robot.ts validateInMemory). The log lines that
 * name the row count come first there, so here every line waits for the end (the row-by-row errors
 * are capped at 50 anyway).
 */
export async function validateStreamed(context: RobotContext, file: RobotFile): Promise<RobotResult> {
  const deferred: [RobotLogLevel, string][] = [];
  const later = { log: (level: RobotLogLevel, text: string) => void deferred.push([level, text]) };
  const errors = cappedLog(later, LOGGED_ERRORS);
  let resolution: ColumnResolution | null = null;
  let counts: ColumnCounts[] = [];
  let rowsWithErrors = 0;

  const output = openOutput(context, outputName(file));
  const outcome = await rewriteWorkbook(file.data, {
    sink: output.sink,
    stopped: () => context.signal.aborted,
    progress: (done, estimate) => context.progress(done, estimate),
    plan(table): TablePlan | null {
      resolution = resolveColumns(table.headers, MAPPED_COLUMNS, context.inputs['columns']);
      if (resolution.found.length === 0) return null;
      counts = resolution.found.map((item) => ({ found: item, valid: 0, invalid: 0, empty: 0, results: new Map() }));
      return {
        columns: counts.map(({ found }) => ({ after: found.index, header: `Resultado ${found.header}` })),
        row(row) {
          const results = counts.map((column) => {
            const cell = row.cell(column.found.index);
            const result = checkText(cell?.text ?? '', cell?.number ?? false, column.found.column.validate ?? '');
            if (result === VALID) column.valid += 1;
            else if (result === EMPTY) column.empty += 1;
            else {
              column.invalid += 1;
              errors.warn(`Fila ${row.index + 1}, ${column.found.column.label} «${cell?.text ?? ''}»: ${result}`);
            }
            return result;
          });
          if (rowHasErrors(results)) rowsWithErrors += 1;
          return results;
        },
      };
    },
  });

  if (outcome.kind === 'stopped') return stoppedResult();
  if (outcome.kind === 'unreadable') return wrongInput(`No se ha podido leer «${file.name}»: comprueba que es un Excel, un ODS o un CSV.`);
  if (outcome.kind === 'empty' || outcome.dataRows === 0 || resolution === null) {
    return wrongInput(`La primera hoja de «${file.name}» no tiene filas de datos debajo de la cabecera.`);
  }
  const { found, detected, notInSheet } = resolution as ColumnResolution;
  const sheetName = outcome.table.sheetName;
  for (const { column, header } of notInSheet) context.log('warn', `La columna «${header}» elegida para ${column.label} no está en la hoja «${sheetName}».`);
  if (!outcome.planned) {
    return wrongInput(
      detected
        ? `No se ha encontrado ninguna columna de NIF/NIE, NAF, IBAN o CCC en la hoja «${sheetName}»: indica qué columna tiene cada dato.`
        : `Ninguna de las columnas elegidas está en la hoja «${sheetName}».`,
    );
  }

  const rows = outcome.dataRows;
  context.log('info', `Hoja «${sheetName}»: ${rows} ${rows === 1 ? 'fila' : 'filas'} con datos.`);
  context.log('info', `Columnas ${detected ? 'encontradas por su cabecera' : 'elegidas'}: ${found.map((item) => `${item.column.label} («${item.header}»)`).join(', ')}.`);
  errors.finish('valores no válidos');
  for (const [level, text] of deferred) context.log(level, text);
  context.progress(rows, rows);

  const summary = summaryRows(counts);
  const widths = summary.reduce<number[]>((max, row) => {
    row.forEach((value, column) => {
      max[column] = Math.max(max[column] ?? 8, Math.min(60, String(value).length + 2));
    });
    return max;
  }, []);
  const names = [outcome.table.sheetName, ...outcome.otherSheets];
  await outcome.finish([{ name: freeName(names, 'Resumen'), rows: summary, widths }]);
  return finished(context, rows, counts, output.files(), rowsWithErrors);
}
