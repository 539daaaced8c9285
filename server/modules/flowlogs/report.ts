import * as XLSX from 'xlsx';
import type { FlowLog } from '#shared/api/flows.ts';
import { executionType, runCost, runStatus } from '#shared/runlogs/index.ts';
import { formatMadridDate, formatMadridDateTime } from '#shared/time/index.ts';
import type { ReportRun } from './service.ts';

export const REPORT_HEADERS = ['Robot', 'Tipo de lanzamiento', 'Fecha', 'Resultado', 'Coste', 'Iteraciones'] as const;

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
  const rows = runs.map((run) => [
    // Today's catalogue name, else the one it ran under: a robot that is gone stays readable.
    run.browserFlow.name ?? run.flowName,
    executionType(run),
    formatMadridDateTime(new Date(run.createAt)),
    resultLabel(run),
    runCost(run.usageHistory),
    iterations(run),
  ]);
  const sheet = XLSX.utils.aoa_to_sheet([[...REPORT_HEADERS], ...rows]);
  sheet['!cols'] = [{ wch: 32 }, { wch: 20 }, { wch: 17 }, { wch: 40 }, { wch: 10 }, { wch: 12 }];
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Historial');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
