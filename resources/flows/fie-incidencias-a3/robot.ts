import { A3_END_OF_LEAVE } from '#shared/a3/incident.ts';
import { columnWidth, fillIncidenciasRow, openIncidenciasSheet } from '#shared/a3/incidences-sheet.ts';
import { toA3SyncRecord, type A3SyncRecord } from '#shared/a3/sync-record.ts';
import { FIELD_BY_CODE } from '#shared/fie/layout.ts';
import { alreadyAddedMessage, failedMessage, fieProcessingError, processedMessage } from '#shared/fie/messages.ts';
import type { FieEntryRead } from '#shared/fie/slot-entry.ts';
import type { FieDiagnosticKind } from '#shared/fie/types.ts';
import type { Robot, RobotContext, RobotFile, RobotResult } from '#shared/flows/robot.ts';
import type { CellValue, SheetWriter } from '#shared/spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { formatMadridDate } from '#shared/time/madrid.ts';
import { fileSize, sameContent } from '../_lib/files.ts';
import { openOutput } from '../_lib/outputs.ts';
import { cappedLog, stoppedResult, wrongInput } from '../_lib/run.ts';
import { EntryProgress } from './progress.ts';
import { readFie } from './read.ts';

/**
 * FIE a incidencias A3: decodes FIE files (text FIE3/FIE4 in Latin-1, or spreadsheets) with shared/fie
 * and turns every entry into the A3 sync record of shared/a3. Output: 'Incidencias A3 <dd-mm-yyyy>.xlsx'
 * with the sheet 'Incidencias' (shared/a3/incidences-sheet.ts: the record's spec columns, in the spec's
 * order, under Spanish headers, with the worker's name; carencia as 'Sí', 'No' or 'Pendiente', dates as
 * date cells; the FIE module's export writes the same sheet) and the sheet 'Errores' (files that are not
 * a FIE, values that could not be read, worded with the spec §8 FIE messages; then the entries left out
 * of 'Incidencias').
 *
 * An entry without a valid date (the leave's, or the alta's for incident 7) cannot be an A3 incident: it
 * is listed in 'Errores', not in 'Incidencias', and not charged. usageUnits counts the rows of 'Incidencias'.
 * The last progress is the run's figures: the partes in 'Incidencias' of those checked (see the end of run).
 *
 * fieId ('Archivo'): no FIE document is saved by this flow, so the column names the file each entry came from.
 *
 * It streams (issue 19: a 1,000,000-entry FIE, 337 MB, in under 1 GB): a text FIE is decoded as its
 * chunks arrive (FieTextStream), each entry becomes its row at once and is written to the .xlsx being
 * deflated (XlsxWriter) and goes to the run's storage (context.output), so memory holds neither the
 * entries, the rows nor the output. A FIE saved as an .xlsx is read row by row too (streamFieXlsx; its
 * compressed bytes are held, since a zip's directory is at its end); .xls and SpreadsheetML are read
 * whole by SheetJS. 'Errores' is written after 'Incidencias', so its rows are kept until then, up to
 * ERROR_ROWS_KEPT.
 */

export const ERROR_COLUMNS = ['Archivo', 'Línea', 'Error', 'Detalle'] as const;

/** The 'Error' of a spreadsheet that broke part-way (its entries before the break are in 'Incidencias'). */
export const DAMAGED_SHEET_ERROR = 'Hoja dañada';

/** The 'Error' of an entry left out of 'Incidencias' for want of a valid date. */
export const NO_DATE_ERROR = 'Parte sin fecha válida';

const DIAGNOSTIC_LABELS: Readonly<Record<FieDiagnosticKind, string>> = {
  'invalid-value': 'Valor no válido',
  'long-line': 'Línea más larga de lo previsto',
  'repeated-segment': 'Segmento repetido',
  'orphan-line': 'Línea fuera de un parte',
  'missing-trailer': 'Falta la línea final',
  'after-trailer': 'Líneas después del final',
};

const LOGGED_PROBLEMS = 50;

/**
 * Rows of 'Errores' kept for the sheet; past them only a count, written as one last row (and said in the
 * log). A damaged 1,000,000-entry file could otherwise hold a million rows of text until the end.
 */
export const ERROR_ROWS_KEPT = 10_000;

type Cell = CellValue;

/**
 * Why an entry cannot go to A3: it has no valid date (fechaFormateada is null: the date field it takes,
 * 1150 for an alta's incident 7 and 1020 otherwise, is missing or not a real date). The 'Detalle' of its
 * row in 'Errores', or null for an entry that goes to 'Incidencias'.
 */
export function entryProblem(entry: FieEntryRead, record: A3SyncRecord): string | null {
  if (record.fechaFormateada !== null) return null;
  const code = record.incidencia === A3_END_OF_LEAVE ? 1150 : 1020;
  const label = (FIELD_BY_CODE.get(code)?.label ?? 'Fecha').toLowerCase();
  const field = entry.fields[code];
  const who = entry.nif ?? (entry.fullname.trim() || 'sin identificar');
  const what = field === undefined ? `no tiene ${label} (${code})` : `la ${label} (${code}) no es válida: '${field.value}'`;
  return `Parte de ${who}: ${what}. No se pasa a A3 ni se cobra.`;
}

/** Widths from the rows themselves, as sheetFromRows (resources/flows/_lib/workbook.ts) computes them. */
function widthsOf(rows: readonly (readonly Cell[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((value, column) => { widths[column] = Math.max(widths[column] ?? 8, columnWidth(String(value ?? '').length)); });
  return widths;
}

/**
 * The rows of 'Errores': the files' problems (not a FIE, values not read) in the order they come, then the
 * entries left out of 'Incidencias'; the first ERROR_ROWS_KEPT of them kept, the rest counted.
 */
class ErrorRows {
  private readonly problems: Cell[][] = [];
  private readonly entries: Cell[][] = [];
  count = 0;

  add(row: Cell[]): void {
    this.count += 1;
    if (this.problems.length < ERROR_ROWS_KEPT) this.problems.push(row);
  }

  addEntry(row: Cell[]): void {
    this.count += 1;
    if (this.entries.length < ERROR_ROWS_KEPT) this.entries.push(row);
  }

  private get kept(): Cell[][] {
    return [...this.problems, ...this.entries.slice(0, ERROR_ROWS_KEPT - this.problems.length)];
  }

  get omitted(): number {
    return this.count - Math.min(ERROR_ROWS_KEPT, this.problems.length + this.entries.length);
  }

  /** The sheet's rows: header, kept rows, and a last row saying how many were left out. */
  rows(): Cell[][] {
    const rows: Cell[][] = [[...ERROR_COLUMNS], ...this.kept];
    if (this.omitted > 0) rows.push([null, null, 'Más errores', `${this.omitted} errores más, que no caben en esta hoja (tiene los ${ERROR_ROWS_KEPT} primeros).`]);
    return rows;
  }
}

/** Whether an earlier upload of this run holds the same bytes (the same file picked twice); see sameContent. */
async function repeatsAnEarlier(files: readonly RobotFile[], index: number): Promise<boolean> {
  const file = files[index];
  if (file === undefined) return false;
  for (const earlier of files.slice(0, index)) if (await sameContent(earlier, file)) return true;
  return false;
}

async function run(context: RobotContext): Promise<RobotResult> {
  const files = context.files['fies'] ?? [];
  if (files.length === 0) return wrongInput('Sube al menos un FIE.');

  const day = formatMadridDate(context.startedAt).replaceAll('/', '-');
  // Written to the run's storage as it is deflated; closed only at a Success, so a refused or stopped run keeps nothing.
  const output = openOutput(context, `Incidencias A3 ${day}.xlsx`);
  const book = new XlsxWriter(output.sink);
  const incidencias: SheetWriter = openIncidenciasSheet(book, Math.max(0, ...files.map((file) => file.name.length)));
  // One array for every row of 'Incidencias': the sheet writes a row as it is given and keeps none of it.
  const row: Cell[] = [];
  const errors = new ErrorRows();
  const problems = cappedLog(context, LOGGED_PROBLEMS);
  const progress = new EntryProgress(context, files.map(fileSize));
  let read = 0;
  let failed = 0;
  let repeated = 0;
  let total = 0;
  let canceled = 0;
  let undated = 0;
  let damaged = 0;
  for (const [index, file] of files.entries()) {
    if (context.signal.aborted) return stoppedResult();
    if (await repeatsAnEarlier(files, index)) {
      repeated += 1;
      progress.skip(index);
      context.log('warn', `«${file.name}» es el mismo archivo que otro de los subidos: se lee una sola vez.`);
      continue;
    }
    progress.startFile(index);
    const recordOptions = { fieId: file.name };
    const outcome = await readFie(file, {
      entry(entry) {
        const record = toA3SyncRecord(entry, recordOptions);
        const problem = entryProblem(entry, record);
        if (problem === null) {
          incidencias.row(fillIncidenciasRow(row, record, entry));
          total += 1;
          if (record.canceled) canceled += 1;
        } else {
          undated += 1;
          errors.addEntry([file.name, null, NO_DATE_ERROR, problem]);
          problems.warn(`«${file.name}»: ${problem}`);
        }
        progress.entry();
      },
      diagnostic(diagnostic) {
        errors.add([file.name, diagnostic.line, DIAGNOSTIC_LABELS[diagnostic.kind], diagnostic.detail]);
        problems.warn(`«${file.name}»${diagnostic.line === null ? '' : `, línea ${diagnostic.line}`}: ${diagnostic.detail}`);
      },
      chunk: (count) => progress.chunk(count),
      aborted: () => context.signal.aborted,
    });
    if (outcome === null) return stoppedResult();
    progress.endFile(outcome.format === 'text');
    await book.flushed();
    const source = outcome.format === 'spreadsheet' ? 'spreadsheet' : 'text';
    if (outcome.ignored) {
      failed += 1;
      const reason = outcome.reason ?? 'No es un FIE';
      errors.add([file.name, null, fieProcessingError(source), reason]);
      context.log('error', `${fieProcessingError(source)}: «${file.name}». ${reason}.`);
      continue;
    }
    read += 1;
    if (outcome.damaged !== undefined) {
      damaged += 1;
      errors.add([file.name, null, DAMAGED_SHEET_ERROR, outcome.damaged]);
      context.log('error', `«${file.name}»: ${outcome.damaged}. Solo se han leído sus ${outcome.entries} primeros partes: vuelve a exportarlo.`);
    }
    const version = outcome.version === null ? 'hoja de cálculo' : outcome.version;
    context.log('info', `«${file.name}» (${version}): ${outcome.entries} ${outcome.entries === 1 ? 'parte' : 'partes'}.`);
  }
  problems.finish('avisos');
  incidencias.end();

  const toastLines = [
    ...(read > 0 ? [processedMessage(read)] : []),
    ...(failed > 0 ? [failedMessage(failed, files.length)] : []),
    ...(repeated > 0 ? [alreadyAddedMessage(repeated, files.length)] : []),
  ];
  for (const line of toastLines) context.log(read > 0 ? 'info' : 'error', line);
  if (total + undated === 0) {
    const reason = read === 0 ? failedMessage(failed, files.length) : 'Los FIE subidos no tienen ningún parte.';
    return wrongInput(`${reason} No hay ningún parte que pasar a A3.`);
  }
  // The run's figures (issue 43, 2): what was checked is every parte read and every file that gave none
  // or broke part-way; what went wrong is each of those that is not in 'Incidencias' (a parte with no
  // valid date, a file not read, a file read up to a break): the mail then says how many have errors.
  progress.finish(total, undated + failed + damaged);

  const errorRows = errors.rows();
  const errorSheet = book.addSheet('Errores', widthsOf(errorRows));
  for (const row of errorRows) errorSheet.row(row);
  errorSheet.end();
  await book.end();
  if (errors.omitted > 0) {
    context.log('warn', `${errors.count} errores: «Errores» tiene los ${ERROR_ROWS_KEPT} primeros y una última fila con cuántos faltan.`);
  }
  context.log('info', `${total} ${total === 1 ? 'parte' : 'partes'} en «Incidencias»${canceled > 0 ? ` (${canceled} anulados)` : ''}; ${errors.count} en «Errores».`);
  if (undated > 0) {
    context.log('warn', `${undated} ${undated === 1 ? 'parte no tiene' : 'partes no tienen'} una fecha válida: ${undated === 1 ? 'está' : 'están'} en «Errores» y no se ${undated === 1 ? 'cobra' : 'cobran'}.`);
  }
  return {
    result: 'Success',
    // Only the entries written to 'Incidencias' are charged.
    usageUnits: total,
    outputs: output.files(),
    summary: { 'FIE leídos': read, 'FIE no leídos': failed, Partes: total, 'Partes sin fecha': undated, Anulados: canceled, Errores: errors.count },
  };
}

const robot: Robot = { run };
export default robot;
