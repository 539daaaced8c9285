import * as XLSX from 'xlsx';
import { toA3SyncRecord, type A3SyncRecord } from '#shared/a3/sync-record.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { alreadyAddedMessage, failedMessage, fieProcessingError, processedMessage } from '#shared/fie/messages.ts';
import type { FieDiagnosticKind, FieEntry } from '#shared/fie/types.ts';
import type { Robot, RobotContext, RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { formatMadridDate } from '#shared/time/madrid.ts';
import { cappedLog, progressReporter, stoppedResult, wrongInput } from '../_lib/run.ts';
import { sheetFromRows, writeWorkbook } from '../_lib/workbook.ts';

/**
 * FIE a incidencias A3: decodes FIE files (text FIE3/FIE4 in Latin-1, or spreadsheets) with shared/fie
 * and turns every entry into the A3 sync record of shared/a3. Output: 'Incidencias A3 <dd-mm-yyyy>.xlsx'
 * with the sheet 'Incidencias' (the record's spec columns, in the spec's order) and the sheet 'Errores'
 * (files that are not a FIE, values that could not be read), worded with the spec §8 FIE messages.
 *
 * fieId: no FIE document is saved by this flow, so the column names the file each entry came from.
 */

/** The A3 sync record columns (spec §3), in this order; the aliases (date, incidenceCode, workerDNI) are left out. */
export const A3_COLUMNS = [
  'fieId', 'dniEmpleado', 'nombreEmpresa', 'fechaFormateada', 'incidencia', 'carencia', 'contingencia', 'ccc',
  'formatedccc', 'diasAcumulados', 'fechaBajaBajaDuracion', 'incidenciaBajaBajaDuracion', 'canceled',
] as const satisfies readonly (keyof A3SyncRecord)[];

export const ERROR_COLUMNS = ['Archivo', 'Línea', 'Error', 'Detalle'] as const;

const DIAGNOSTIC_LABELS: Readonly<Record<FieDiagnosticKind, string>> = {
  'invalid-value': 'Valor no válido',
  'long-line': 'Línea más larga de lo previsto',
  'repeated-segment': 'Segmento repetido',
  'orphan-line': 'Línea fuera de un parte',
  'missing-trailer': 'Falta la línea final',
  'after-trailer': 'Líneas después del final',
};

const LOGGED_PROBLEMS = 50;

type Cell = string | number | boolean | null;

interface DecodedFile {
  file: RobotFile;
  entries: FieEntry[];
}

/** Same bytes as an earlier upload of this run: the same file picked twice. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function recordRow(record: A3SyncRecord): Cell[] {
  return A3_COLUMNS.map((column) => record[column]);
}

async function run(context: RobotContext): Promise<RobotResult> {
  const files = context.files['fies'] ?? [];
  if (files.length === 0) return wrongInput('Sube al menos un FIE.');

  const errorRows: Cell[][] = [];
  const problems = cappedLog(context, LOGGED_PROBLEMS);
  const decoded: DecodedFile[] = [];
  let failed = 0;
  let repeated = 0;
  for (const [index, file] of files.entries()) {
    if (context.signal.aborted) return stoppedResult();
    if (files.slice(0, index).some((earlier) => sameBytes(earlier.data, file.data))) {
      repeated += 1;
      context.log('warn', `«${file.name}» es el mismo archivo que otro de los subidos: se lee una sola vez.`);
      continue;
    }
    const document = decodeFie(file.data);
    const source = document.format === 'spreadsheet' ? 'spreadsheet' : 'text';
    if (document.ignored) {
      failed += 1;
      const reason = document.reason ?? 'No es un FIE';
      errorRows.push([file.name, null, fieProcessingError(source), reason]);
      context.log('error', `${fieProcessingError(source)}: «${file.name}». ${reason}.`);
      continue;
    }
    for (const diagnostic of document.diagnostics) {
      errorRows.push([file.name, diagnostic.line, DIAGNOSTIC_LABELS[diagnostic.kind], diagnostic.detail]);
      problems.warn(`«${file.name}»${diagnostic.line === null ? '' : `, línea ${diagnostic.line}`}: ${diagnostic.detail}`);
    }
    const version = document.version === null ? 'hoja de cálculo' : document.version;
    context.log('info', `«${file.name}» (${version}): ${document.entries.length} ${document.entries.length === 1 ? 'parte' : 'partes'}.`);
    decoded.push({ file, entries: document.entries });
  }
  problems.finish('avisos');

  const total = decoded.reduce((sum, item) => sum + item.entries.length, 0);
  const toastLines = [
    ...(decoded.length > 0 ? [processedMessage(decoded.length)] : []),
    ...(failed > 0 ? [failedMessage(failed, files.length)] : []),
    ...(repeated > 0 ? [alreadyAddedMessage(repeated, files.length)] : []),
  ];
  for (const line of toastLines) context.log(decoded.length > 0 ? 'info' : 'error', line);
  if (total === 0) {
    const reason = decoded.length === 0 ? failedMessage(failed, files.length) : 'Los FIE subidos no tienen ningún parte.';
    return wrongInput(`${reason} No hay ningún parte que pasar a A3.`);
  }

  const rows: Cell[][] = [];
  const report = progressReporter(context, total);
  for (const { file, entries } of decoded) {
    for (const entry of entries) {
      if (context.signal.aborted) return stoppedResult();
      rows.push(recordRow(toA3SyncRecord(entry, { fieId: file.name })));
      report(rows.length);
    }
  }

  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheetFromRows([[...A3_COLUMNS], ...rows]), 'Incidencias');
  XLSX.utils.book_append_sheet(workbook, sheetFromRows([[...ERROR_COLUMNS], ...errorRows]), 'Errores');
  const day = formatMadridDate(context.startedAt).replaceAll('/', '-');
  const canceled = rows.filter((row) => row[A3_COLUMNS.indexOf('canceled')] === true).length;
  context.log('info', `${total} ${total === 1 ? 'parte' : 'partes'} en «Incidencias»${canceled > 0 ? ` (${canceled} anulados)` : ''}; ${errorRows.length} en «Errores».`);
  return {
    result: 'Success',
    usageUnits: total,
    outputs: [{ name: `Incidencias A3 ${day}.xlsx`, data: writeWorkbook(workbook) }],
    summary: { 'FIE leídos': decoded.length, 'FIE no leídos': failed, Partes: total, Anulados: canceled, Errores: errorRows.length },
  };
}

const robot: Robot = { run };
export default robot;
