import { mkdir } from 'node:fs/promises';
import { withLocalProcessRunner } from '../robots/local-process-runtime.ts';
import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime } from '../robots/types.ts';
import { ALTAS_RUN_INPUTS, ALTAS_RUN_SUMMARY, altaIdsOf } from '#shared/altas/runs.ts';
import type { AltasDesktop } from './types.ts';

/**
 * The altas' local processes (spec §3 Scheduled flow localProcess), run on this PC instead of a robot
 * through the same run as any scheduled robot (leased, lines and usage reported, closed with its outcome):
 *   sync-altas     the firm's registrations not yet in RED -> RED Online with the schedule's certificate (or an
 *                  AFI remittance, input 'canal'); 1 unit per registration RED registered
 *   sync-altas-a3  the RED-registered ones not yet in A3 -> A3's '202 – MA' import; 1 unit per one synced
 * The altas screen's buttons launch them like any launch (issue 44, 5: the run is in the history) with the
 * hidden input 'altas', the ids it chose; without it a run takes every pending one.
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
  summary: Record<string, string | number>;
}

/** The summary of an altas run: its counts, the AFI file and the first refusal when there are (shared/altas/runs.ts). */
function summaryOf(doneKey: string, done: number, failed: number, extra: { afiFile?: string | undefined; firstError?: string | undefined }): Record<string, string | number> {
  return {
    [doneKey]: done,
    [ALTAS_RUN_SUMMARY.failed]: failed,
    ...(extra.afiFile ? { [ALTAS_RUN_SUMMARY.afiFile]: extra.afiFile } : {}),
    ...(extra.firstError ? { [ALTAS_RUN_SUMMARY.firstError]: extra.firstError } : {}),
  };
}

/** A runtime that runs the altas' processes itself and hands every other job to `inner`. */
export function withAltasLocalProcesses(inner: RobotRuntime, options: AltasLocalProcessOptions): RobotRuntime {

  async function toRed(job: RobotJob, events: RobotEvents, signal: AbortSignal): Promise<Counted> {
    const certificate = certificateOf(job);
    if (!certificate) throw new Error(CERTIFICATE_NEEDED_MESSAGE);
    const altas = options.altas();
    const chosen = altaIdsOf(job.inputs[ALTAS_RUN_INPUTS.ids]);
    const channel = job.inputs[ALTAS_RUN_INPUTS.channel] === 'afi' ? 'afi' : 'red-online';
    const { red } = await altas.pending();
    const titles = new Map(red.map((each) => [each._id, each.title]));
    // The screen's choice as it is (the server says which cannot go); a scheduled run takes every pending one.
    const ids = chosen.length > 0 ? chosen : red.map((each) => each._id);
    if (ids.length === 0) {
      events.log('info', NO_RED_PENDING_MESSAGE);
      return { done: 0, failed: 0, summary: summaryOf(ALTAS_RUN_SUMMARY.registered, 0, 0, {}) };
    }
    events.log('info', `Registrando en Sistema RED ${ids.length} alta(s): ${ids.map((id) => titles.get(id) ?? id).join(', ')}`);
    const result = await altas.syncToRed(ids, certificate, { channel, log: events.log, signal });
    for (const each of result.results) {
      if (each.state === 'error') events.log('error', `${titles.get(each.submissionId) ?? each.submissionId}: ${each.message}`);
    }
    events.progress(result.registered, result.results.length);
    const firstError = result.results.find((each) => each.state === 'error')?.message;
    return { done: result.registered, failed: result.failed, summary: summaryOf(ALTAS_RUN_SUMMARY.registered, result.registered, result.failed, { afiFile: result.afiFile, firstError }) };
  }

  async function toA3(job: RobotJob, events: RobotEvents, signal: AbortSignal): Promise<Counted> {
    const altas = options.altas();
    const chosen = altaIdsOf(job.inputs[ALTAS_RUN_INPUTS.ids]);
    const { a3 } = await altas.pending();
    const titles = new Map(a3.map((each) => [each._id, each.title]));
    const ids = chosen.length > 0 ? chosen : a3.map((each) => each._id);
    if (ids.length === 0) {
      events.log('info', NO_A3_PENDING_MESSAGE);
      return { done: 0, failed: 0, summary: summaryOf(ALTAS_RUN_SUMMARY.synced, 0, 0, {}) };
    }
    events.log('info', `Sincronizando con A3 ${ids.length} alta(s): ${ids.map((id) => titles.get(id) ?? id).join(', ')}`);
    const result = await altas.syncToA3(ids, { signal });
    for (const each of result.results) {
      if (each.state === 'error') events.log('error', `A3 no ha importado el alta de ${titles.get(each.submissionId) ?? each.submissionId}: ${each.error ?? ''}`);
    }
    events.log(result.failed === 0 ? 'info' : 'warn', `A3 ha importado ${result.synced} de ${result.results.length} altas.`);
    events.progress(result.synced, result.results.length);
    const firstError = result.results.find((each) => each.state === 'error' && each.error)?.error ?? undefined;
    return { done: result.synced, failed: result.failed, summary: summaryOf(ALTAS_RUN_SUMMARY.synced, result.synced, result.failed, { firstError }) };
  }

  async function run(job: RobotJob, name: AltasLocalProcess, events: RobotEvents, signal: AbortSignal): Promise<RobotOutcome> {
    const counted = await (name === 'sync-altas' ? toRed : toA3)(job, events, signal);
    await mkdir(job.outputFolder, { recursive: true });
    return {
      kind: 'result',
      // Nothing done and something refused: the run failed (each registration keeps its own reason).
      // An AFI remittance written is done too: SILTRA sends it (it costs nothing: RED has not registered it yet).
      result: counted.done === 0 && counted.failed > 0 && counted.summary[ALTAS_RUN_SUMMARY.afiFile] === undefined ? 'Fail' : 'Success',
      usageUnits: counted.done,
      summary: counted.summary,
      outputFolder: job.outputFolder,
      outputFileNames: [],
    };
  }

  return withLocalProcessRunner(inner, isAltasProcess, run);
}
