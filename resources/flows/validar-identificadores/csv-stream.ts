import type { RobotContext, RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import { readDsvText } from '#shared/spreadsheet/dsv.ts';
import { HEADER_SEARCH_ROWS } from '#shared/spreadsheet/first-table.ts';
import type { CellValue } from '#shared/spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { resolveColumns, type ColumnResolution } from '../_lib/columns.ts';
import { fileChunks, fileSize } from '../_lib/files.ts';
import { openOutput } from '../_lib/outputs.ts';
import { cappedLog, stoppedResult, wrongInput } from '../_lib/run.ts';
import { baseName, decodeTextChunks } from '../_lib/text.ts';
import { freeName, sheetNameFor } from '../_lib/workbook.ts';
import { checkText, EMPTY, finished, outputName, rowHasErrors, LOGGED_ERRORS, MAPPED_COLUMNS, summaryRows, VALID, type ColumnCounts } from './check.ts';

/**
 * The robot on a large CSV, streamed: the text decoded chunk by chunk (UTF-8, else Latin-1, as
 * decodeText), split by SheetJS's own DSV loop (shared/spreadsheet/dsv.ts), each row checked and
 * written at once to a new .xlsx (one sheet named after the file, then 'Resumen'), as the in-memory
 * path (robot.ts validateInMemory) would write it: every field a text cell as typed, 'Resultado …'
 * after each checked column, to the run's output as it is made (context.output). Memory holds the few
 * rows read before the header is known (HEADER_SEARCH_ROWS), never the file's rows nor the output.
 */

/** Thrown from inside the row loop to leave it: the user stopped the run, or nothing more needs reading. */
class Leave extends Error {}

/** How often the progress is sent and the stop checked, in rows. */
const REPORT_EVERY = 2_000;

const filledCount = (fields: readonly string[]) => fields.reduce((count, field) => (field.trim() === '' ? count : count + 1), 0);

export async function validateCsvStreamed(context: RobotContext, file: RobotFile): Promise<RobotResult> {
  const deferred: [RobotLogLevel, string][] = [];
  const errors = cappedLog({ log: (level, text) => void deferred.push([level, text]) }, LOGGED_ERRORS);
  const sheetName = sheetNameFor(baseName(file.name));
  const output = openOutput(context, outputName(file));
  const book = new XlsxWriter(output.sink);
  const sheet = book.addSheet(sheetName);

  let resolution: ColumnResolution | null = null;
  let counts: ColumnCounts[] = [];
  /** The 0-based columns a result follows, ascending: an original column moves right by those before it. */
  let afters: number[] = [];
  let headerRow: number | null = null;
  /** The window's first row with one filled cell: the header if no row of the window has two. */
  let single: number | null = null;
  /** Rows read while the header is not decided: [index, fields]. */
  const waiting: [number, string[]][] = [];
  let dataRows = 0;
  let rowsWithErrors = 0;
  let rowsRead = 0;
  let charsRead = 0;
  const totalBytes = fileSize(file);

  const shiftOf = (column: number) => {
    let shift = 0;
    while (shift < afters.length && (afters[shift] ?? 0) < column) shift += 1;
    return shift;
  };
  const placed = (fields: readonly string[], results: readonly string[] | null): CellValue[] => {
    const out: CellValue[] = [];
    fields.forEach((field, column) => (out[column + shiftOf(column)] = field));
    // results[i] belongs to counts[i], in the order the columns were found (as the summary lists them).
    results?.forEach((result, at) => {
      const after = counts[at]?.found.index ?? 0;
      out[after + shiftOf(after) + 1] = result;
    });
    return out;
  };

  const decideHeader = (row: number, fields: readonly string[]) => {
    headerRow = row;
    resolution = resolveColumns(
      fields.map((field) => field.trim()),
      MAPPED_COLUMNS,
      context.inputs['columns'],
    );
    counts = resolution.found.map((item) => ({ found: item, valid: 0, invalid: 0, empty: 0, results: new Map() }));
    afters = counts.map(({ found }) => found.index).sort((a, b) => a - b);
  };

  const writeRow = (row: number, fields: string[]) => {
    if (headerRow === null || row < headerRow) return sheet.row(placed(fields, null));
    if (row === headerRow) return sheet.row(placed(fields, counts.map(({ found }) => `Resultado ${found.header}`)));
    if (filledCount(fields) === 0) return sheet.row([]);
    dataRows += 1;
    // A table with nothing to check: the first data row is enough to answer which message applies.
    if (counts.length === 0) throw new Leave();
    const results = counts.map((column) => {
      const text = (fields[column.found.index] ?? '').trim();
      const result = checkText(text, false, column.found.column.validate ?? '');
      if (result === VALID) column.valid += 1;
      else if (result === EMPTY) column.empty += 1;
      else {
        column.invalid += 1;
        errors.warn(`Fila ${row + 1}, ${column.found.column.label} «${text}»: ${result}`);
      }
      return result;
    });
    if (rowHasErrors(results)) rowsWithErrors += 1;
    sheet.row(placed(fields, results));
  };

  /** The header rule of _lib/workbook.ts headerRowOf, on rows as they come. */
  const onRow = (row: number, fields: string[]) => {
    rowsRead += 1;
    if (rowsRead % REPORT_EVERY === 0) {
      if (context.signal.aborted) throw new Leave();
      context.progress(dataRows, Math.max(dataRows, Math.round((dataRows * totalBytes) / Math.max(1, charsRead))));
    }
    if (headerRow !== null) return writeRow(row, fields);
    const filled = filledCount(fields);
    if (row < HEADER_SEARCH_ROWS) {
      waiting.push([row, fields]);
      if (filled >= 2) decideHeader(row, fields);
      else if (filled === 1 && single === null) single = row;
    } else {
      const chosen = waiting.find(([index]) => index === single);
      if (chosen) decideHeader(chosen[0], chosen[1]);
      else if (filled > 0) decideHeader(row, fields);
      if (headerRow === null) waiting.push([row, fields]);
      else {
        for (const [index, held] of waiting.splice(0)) writeRow(index, held);
        writeRow(row, fields);
      }
      return;
    }
    if (headerRow !== null) for (const [index, held] of waiting.splice(0)) writeRow(index, held);
  };

  async function* counted(): AsyncGenerator<string> {
    for await (const text of decodeTextChunks(() => fileChunks(file))) {
      charsRead += text.length;
      // The rows of the last chunk are written: the sink takes them before more is read.
      if (book.backlogged) await book.flushed();
      yield text;
    }
  }

  let left = false;
  try {
    await readDsvText(counted(), onRow);
    // A file shorter than the header window: its single-cell row, if any, is the header.
    if (headerRow === null) {
      const chosen = waiting.find(([index]) => index === single);
      if (chosen) decideHeader(chosen[0], chosen[1]);
      for (const [index, held] of waiting.splice(0)) writeRow(index, held);
    }
  } catch (error) {
    if (!(error instanceof Leave)) throw error;
    left = true;
  }
  if (context.signal.aborted) return stoppedResult();

  const noRows = wrongInput(`La primera hoja de «${file.name}» no tiene filas de datos debajo de la cabecera.`);
  if (resolution === null || dataRows === 0) return noRows;
  const { found, detected, notInSheet } = resolution as ColumnResolution;
  for (const { column, header } of notInSheet) context.log('warn', `La columna «${header}» elegida para ${column.label} no está en la hoja «${sheetName}».`);
  if (found.length === 0) {
    return wrongInput(
      detected
        ? `No se ha encontrado ninguna columna de NIF/NIE, NAF, IBAN o CCC en la hoja «${sheetName}»: indica qué columna tiene cada dato.`
        : `Ninguna de las columnas elegidas está en la hoja «${sheetName}».`,
    );
  }
  if (left) return stoppedResult();

  context.log('info', `Hoja «${sheetName}»: ${dataRows} ${dataRows === 1 ? 'fila' : 'filas'} con datos.`);
  context.log('info', `Columnas ${detected ? 'encontradas por su cabecera' : 'elegidas'}: ${found.map((item) => `${item.column.label} («${item.header}»)`).join(', ')}.`);
  errors.finish('valores no válidos');
  for (const [level, text] of deferred) context.log(level, text);
  context.progress(dataRows, dataRows);

  sheet.end();
  const summary = summaryRows(counts);
  const widths = summary.reduce<number[]>((max, row) => {
    row.forEach((value, column) => (max[column] = Math.max(max[column] ?? 8, Math.min(60, String(value).length + 2))));
    return max;
  }, []);
  const resumen = book.addSheet(freeName([sheetName], 'Resumen'), widths);
  for (const row of summary) resumen.row(row);
  resumen.end();
  await book.end();
  return finished(context, dataRows, counts, output.files(), rowsWithErrors);
}
