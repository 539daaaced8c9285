import type { FlowLog } from '#shared/api/flows.ts';
import { executionType, runCost, runStatus } from '#shared/runlogs/index.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { formatMadridDate, formatMadridDateTime } from '#shared/time/index.ts';
import type { ReportRun } from './service.ts';

export const REPORT_HEADERS = ['Robot', 'Tipo de lanzamiento', 'Fecha', 'Resultado', 'Coste', 'Sin errores'] as const;

const RUNNING_LABEL = 'En ejecución';

function resultLabel(run: FlowLog): string {
  if (run.state !== 'finished' && !run.stoppedByUser) return RUNNING_LABEL;
  return runStatus({ result: run.result, stoppedByUser: run.stoppedByUser }).label;
}

function iterations(run: FlowLog): string {
  return run.totalIterations > 0 ? `${run.successfulIterations}/${run.totalIterations}` : '';
}

/** 'Historial de robots dd-mm-yyyy.xlsx', dated on the Madrid calendar. */
export function reportFilename(now: Date): string {
  return `Historial de robots ${formatMadridDate(now).replaceAll('/', '-')}.xlsx`;
}

/** The history as an .xlsx workbook, one row per run, in Spanish, dates in Europe/Madrid. */
export function historyWorkbook(runs: readonly ReportRun[]): Buffer {
  // Written row by row (shared/spreadsheet): a long history never becomes a SheetJS sheet object too.
  const book = new XlsxWriter();
  const sheet = book.addSheet('Historial', [32, 20, 17, 40, 10, 12]);
  sheet.row(REPORT_HEADERS);
  for (const run of runs) {
    sheet.row([
      // Today's catalogue name, else the one it ran under: a robot that is gone stays readable.
      run.browserFlow.name ?? run.flowName,
      executionType(run),
      formatMadridDateTime(new Date(run.createAt)),
      resultLabel(run),
      runCost(run.usageHistory),
      iterations(run),
    ]);
  }
  sheet.end();
  const bytes = book.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
