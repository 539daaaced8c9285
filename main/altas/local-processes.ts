import { mkdir } from 'node:fs/promises';
import { withLocalProcessRunner } from '../robots/local-process-runtime.ts';
import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime } from '../robots/types.ts';
import type { AltasDesktop } from './types.ts';

/**
 * The altas' local processes (spec §3 Scheduled flow localProcess), run on this PC instead of a robot
 * through the same run as any scheduled robot (leased, lines and usage reported, closed with its outcome):
 *   sync-altas     the firm's registrations not yet in RED -> RED Online with the schedule's certificate;
 *                  1 unit per registration RED registered
 *   sync-altas-a3  the RED-registered ones not yet in A3 -> A3's '202 – MA' import; 1 unit per one synced
 * Composed over the FIE's runtime (main/fie/local-processes.ts), which refuses any process it does not know.
 */
export const ALTAS_LOCAL_PROCESSES = ['sync-altas', 'sync-altas-a3'] as const;
export type AltasLocalProcess = (typeof ALTAS_LOCAL_PROCESSES)[number];
export const ALTAS_LOCAL_PROCESS_TITLES: Record<AltasLocalProcess, string> = {
  'sync-altas': 'Registra en Sistema RED las altas pendientes',
  'sync-altas-a3': 'Sincroniza con A3 las altas registradas en RED',
};

export const NO_RED_PENDING_MESSAGE = 'No hay altas pendientes de registrar en Sistema RED.';
export const NO_A3_PENDING_MESSAGE = 'No hay altas pendientes de sincronizar con A3.';
export const CERTIFICATE_NEEDED_MESSAGE = 'Elige el certificado con el que RED Online registrará las altas.';

const FINGERPRINT = /^[0-9a-f]{64}$/;

export interface AltasLocalProcessOptions {
  /** Read when a process starts (the altas service is made after the device link that needs this runtime). */
  altas: () => AltasDesktop;
}

const isAltasProcess = (name: string): name is AltasLocalProcess => (ALTAS_LOCAL_PROCESSES as readonly string[]).includes(name);

/** The schedule's certificate input, whatever its flow calls it. */
function certificateOf(job: RobotJob): string | null {
  return [job.inputs.certificado, job.inputs['input-certificate'], job.inputs.certificate].find((value): value is string => typeof value === 'string' && FINGERPRINT.test(value)) ?? null;
}

interface Counted {
  done: number;
  failed: number;
  summary: Record<string, number>;
}

/** A runtime that runs the altas' processes itself and hands every other job to `inner`. */
export function withAltasLocalProcesses(inner: RobotRuntime, options: AltasLocalProcessOptions): RobotRuntime {

  async function toRed(job: RobotJob, events: RobotEvents, signal: AbortSignal): Promise<Counted> {
    const certificate = certificateOf(job);
    if (!certificate) throw new Error(CERTIFICATE_NEEDED_MESSAGE);
    const altas = options.altas();
    const { red } = await altas.pending();
    if (red.length === 0) {
      events.log('info', NO_RED_PENDING_MESSAGE);
      return { done: 0, failed: 0, summary: { registradas: 0, errores: 0 } };
    }
    const titles = new Map(red.map((each) => [each._id, each.title]));
    events.log('info', `Registrando en Sistema RED ${red.length} alta(s): ${red.map((each) => each.title).join(', ')}`);
    const result = await altas.syncToRed(red.map((each) => each._id), certificate, { log: events.log, signal });
    for (const each of result.results) {
      if (each.state === 'error') events.log('error', `${titles.get(each.submissionId) ?? each.submissionId}: ${each.message}`);
    }
    events.progress(result.registered, result.results.length);
    return { done: result.registered, failed: result.failed, summary: { registradas: result.registered, errores: result.failed } };
  }

  async function toA3(_job: RobotJob, events: RobotEvents, signal: AbortSignal): Promise<Counted> {
    const altas = options.altas();
    const { a3 } = await altas.pending();
    if (a3.length === 0) {
      events.log('info', NO_A3_PENDING_MESSAGE);
      return { done: 0, failed: 0, summary: { sincronizadas: 0, errores: 0 } };
    }
    const titles = new Map(a3.map((each) => [each._id, each.title]));
    events.log('info', `Sincronizando con A3 ${a3.length} alta(s): ${a3.map((each) => each.title).join(', ')}`);
    const result = await altas.syncToA3(a3.map((each) => each._id), { signal });
    for (const each of result.results) {
      if (each.state === 'error') events.log('error', `A3 no ha importado el alta de ${titles.get(each.submissionId) ?? each.submissionId}: ${each.error ?? ''}`);
    }
    events.log(result.failed === 0 ? 'info' : 'warn', `A3 ha importado ${result.synced} de ${result.results.length} altas.`);
    events.progress(result.synced, result.results.length);
    return { done: result.synced, failed: result.failed, summary: { sincronizadas: result.synced, errores: result.failed } };
  }

  async function run(job: RobotJob, name: AltasLocalProcess, events: RobotEvents, signal: AbortSignal): Promise<RobotOutcome> {
    const counted = await (name === 'sync-altas' ? toRed : toA3)(job, events, signal);
    await mkdir(job.outputFolder, { recursive: true });
    return {
      kind: 'result',
      // Nothing done and something refused: the run failed (each registration keeps its own reason).
      result: counted.done === 0 && counted.failed > 0 ? 'Fail' : 'Success',
      usageUnits: counted.done,
      summary: counted.summary,
      outputFolder: job.outputFolder,
      outputFileNames: [],
    };
  }

  return withLocalProcessRunner(inner, isAltasProcess, run);
}
