import { normalizeFilename } from '#shared/files/index.ts';
import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { RunResultName } from '#shared/runlogs/index.ts';
import type { WorkerOutcome } from './pool.ts';

/**
 * How a run ends: a worker's outcome (a robot's result, a throw, a crash, a time-out, a stop) turned
 * into what flow_runs records and what is charged, and the names its outputs are stored under.
 */

export const TIME_LIMIT_MESSAGE = 'Tiempo límite superado';
export const STOPPED_MESSAGE = 'Robot detenido';

/** How a run ends: what flow_runs records and what is charged. */
export interface Closing {
  result: RunResultName;
  launchStatus: number;
  stoppedByUser: boolean;
  /** Units charged (0 for anything but a result the robot returned as Success or WrongInput). */
  usageUnits: number;
  message: string | null;
  summary: Record<string, string | number | boolean> | null;
  outputs: RobotFile[];
  logLine: { level: RobotLogLevel; text: string } | null;
}

export function aborted(message: string, stoppedByUser: boolean): Closing {
  return {
    result: 'FlowAborted',
    launchStatus: stoppedByUser ? 202 : 299,
    stoppedByUser,
    usageUnits: 0,
    message,
    summary: null,
    outputs: [],
    logLine: { level: stoppedByUser ? 'warn' : 'error', text: message },
  };
}

export function failed(launchStatus: number, message: string, logText: string): Closing {
  return { result: 'Fail', launchStatus, stoppedByUser: false, usageUnits: 0, message, summary: null, outputs: [], logLine: { level: 'error', text: logText } };
}

/** A robot's result as it crossed the thread boundary, checked before anything is stored or charged. */
function isRobotResult(value: unknown): value is RobotResult {
  const result = value as Partial<RobotResult> | null;
  return (
    typeof result === 'object' && result !== null &&
    (result.result === 'Success' || result.result === 'Fail' || result.result === 'WrongInput') &&
    typeof result.usageUnits === 'number' && Number.isFinite(result.usageUnits) && result.usageUnits >= 0 &&
    Array.isArray(result.outputs) &&
    result.outputs.every((file) => typeof file?.name === 'string' && file.data instanceof Uint8Array)
  );
}

function jsonSafeSummary(summary: RobotResult['summary']): Closing['summary'] {
  if (summary === undefined) return null;
  const entries = Object.entries(summary).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/**
 * The spec §4 launch status of each way a run can end. Charged: what the robot reports for Success
 * and WrongInput (it did the work). Not charged: a robot's own Fail, a throw, a crash, a time-out, a
 * stop by the user, and a run the server abandoned.
 */
export function closingFor(outcome: WorkerOutcome, timeLimitSeconds: number, stopReason: 'user' | 'shutdown'): Closing {
  switch (outcome.kind) {
    case 'result': {
      if (!isRobotResult(outcome.result)) return failed(500, 'El robot no ha devuelto un resultado válido', 'El robot no ha devuelto un resultado válido');
      const { result } = outcome;
      const charged = result.result !== 'Fail';
      return {
        result: result.result,
        launchStatus: result.result === 'Success' ? 200 : result.result === 'WrongInput' ? 242 : 500,
        stoppedByUser: false,
        usageUnits: charged ? result.usageUnits : 0,
        message: result.message ?? null,
        summary: jsonSafeSummary(result.summary),
        outputs: result.outputs,
        logLine: result.result === 'Success' ? null : { level: result.result === 'Fail' ? 'error' : 'warn', text: result.message ?? (result.result === 'Fail' ? 'El robot no ha podido terminar' : 'Entradas incorrectas') },
      };
    }
    case 'failed':
      return failed(500, 'El robot no se ha lanzado correctamente', `El robot ha fallado: ${outcome.message}`);
    case 'crashed':
      return failed(500, 'El robot no se ha lanzado correctamente', `El robot se ha detenido por un error: ${outcome.message}`);
    case 'timeout':
      return failed(504, TIME_LIMIT_MESSAGE, `${TIME_LIMIT_MESSAGE}: el robot llevaba ${timeLimitSeconds} s y se ha detenido`);
    case 'stopped':
      return stopReason === 'user' ? aborted(STOPPED_MESSAGE, true) : aborted('El servidor se ha detenido durante la ejecución. No se ha cobrado.', false);
  }
}

/** Output names as stored: normalised, and unique within the run ('x.xlsx', 'x (2).xlsx'). */
export function uniqueNames(files: readonly RobotFile[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const name = normalizeFilename(file.name) || 'resultado';
    const dot = name.lastIndexOf('.');
    const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let copy = 2; taken.has(candidate); copy += 1) candidate = `${base} (${copy})${extension}`;
    taken.add(candidate);
    return candidate;
  });
}
