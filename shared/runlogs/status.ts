import { creditUnitNames } from '../billing/money.ts';

/** Flow log results as the server stores them: by name or by their numeric code (spec §3). */
export const RUN_RESULTS = { Success: 0, Fail: 1, WrongInput: 2, NotEnoughSlans: 3, FlowAborted: 4 } as const;
export type RunResultName = keyof typeof RUN_RESULTS;
export type RunResultCode = (typeof RUN_RESULTS)[RunResultName];

export type RunStatusCode = 200 | 202 | 299 | 400 | 402 | 500;

export interface RunStatus {
  /** The launcher's status code for this outcome; null when the result is unknown. */
  status: RunStatusCode | null;
  label: string;
}

export const UNKNOWN_RESULT_LABEL = 'Error inesperado';

/** Spec §4 run log status mapping; the 402 label names the firm's credit unit. */
function statusFor(result: RunResultName, creditsPlural: string): RunStatus {
  switch (result) {
    case 'Success': return { status: 200, label: 'Finalizado' };
    case 'Fail': return { status: 500, label: 'El robot no se ha lanzado correctamente' };
    case 'WrongInput': return { status: 400, label: 'Entradas incorrectas' };
    case 'NotEnoughSlans': return { status: 402, label: `Insuficientes ${creditsPlural}` };
    case 'FlowAborted': return { status: 299, label: 'Robot interrumpido' };
  }
}

/** Accepts 'Success', 0, '0' ...; anything else is unknown. */
export function resultName(result: unknown): RunResultName | null {
  if (typeof result === 'string' && Object.hasOwn(RUN_RESULTS, result)) return result as RunResultName;
  const code = typeof result === 'string' && /^\d+$/.test(result) ? Number(result) : result;
  const entry = Object.entries(RUN_RESULTS).find(([, value]) => value === code);
  return entry === undefined ? null : (entry[0] as RunResultName);
}

export interface RunOutcome {
  result?: unknown;
  stoppedByUser?: boolean;
}

/**
 * Status and label of a run log. A run the user stopped is 'Robot detenido' (202) whatever its
 * result; an unknown result is 'Error inesperado'. `currencies` is the group's 'singular|plural'.
 */
export function runStatus(log: RunOutcome, currencies?: string): RunStatus {
  if (log.stoppedByUser === true) return { status: 202, label: 'Robot detenido' };
  const name = resultName(log.result);
  if (name === null) return { status: null, label: UNKNOWN_RESULT_LABEL };
  return statusFor(name, creditUnitNames(currencies).plural);
}
