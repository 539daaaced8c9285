import { mkdir } from 'node:fs/promises';
import { formatDayMonthYear } from '#shared/fie/dates.ts';
import { processingToast } from '#shared/fie/messages.ts';
import { withLocalProcessRunner } from '../robots/local-process-runtime.ts';
import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime } from '../robots/types.ts';
import { madridYesterday } from '../siltra/dates.ts';
import type { FieDesktop } from './desktop.ts';

/**
 * The autopilot's local processes (spec §3 Scheduled flow localProcess): a schedule that names one runs
 * it on this PC instead of its flow's robot, through the same run as any scheduled robot (leased by the
 * run loop, its lines and usage reported, closed with its outcome), so it is in the history with its cost.
 *   get-fie-siltra   yesterday's FIE (Madrid day) from the SILTRA folder, and FIER with the schedule's
 *                    certificate when it has one, uploaded to the server; 1 unit per FIE processed
 *   sync-fie-a3      the firm's pending entries (enabled types) -> A3 import -> a3-results; 1 unit per entry synced
 *   sync-siltra-a3   both, in that order
 */
export const FIE_LOCAL_PROCESSES = ['get-fie-siltra', 'sync-fie-a3', 'sync-siltra-a3'] as const;
export type FieLocalProcess = (typeof FIE_LOCAL_PROCESSES)[number];
/** What the autopilot panel says each one does. */
export const FIE_LOCAL_PROCESS_TITLES: Record<FieLocalProcess, string> = {
  'get-fie-siltra': 'Obtiene de SILTRA los FIE de ayer',
  'sync-fie-a3': 'Sincroniza con A3 los partes pendientes',
  'sync-siltra-a3': 'Obtiene de SILTRA los FIE de ayer y sincroniza con A3 los partes pendientes',
};

export const unknownProcessMessage = (name: string) => `Este equipo no sabe ejecutar el proceso «${name.slice(0, 60)}»: actualiza la aplicación.`;
export const NOTHING_PENDING_MESSAGE = 'No hay partes pendientes de sincronizar con A3.';

const FINGERPRINT = /^[0-9a-f]{64}$/;

export interface LocalProcessOptions {
  /** Read when a process starts (the FIE service is made after the device link that needs this runtime). */
  fie: () => FieDesktop;
  now?: () => Date;
}

interface StepOutcome {
  units: number;
  /** The step went wrong for everything it touched (nothing uploaded, nothing synced). */
  failed: boolean;
  summary: Record<string, number>;
}

/** A runtime that runs the FIE local processes itself and hands every other job to `robots`. */
export function withLocalProcesses(robots: RobotRuntime, options: LocalProcessOptions): RobotRuntime {
  const now = options.now ?? (() => new Date());

  async function fetchYesterday(job: RobotJob, events: RobotEvents): Promise<StepOutcome> {
    // An upload under way is not cut: what the server stored is stored whole.
    const day = madridYesterday(now());
    // The schedule's certificate input, whatever its flow calls it ('input-certificate' as the bridge does, or a robot's own key).
    const certificate = [job.inputs['input-certificate'], job.inputs.certificate, job.inputs.certificado].find((value): value is string => typeof value === 'string' && FINGERPRINT.test(value)) ?? null;
    events.log('info', `Buscando los FIE del ${formatDayMonthYear(day)} en SILTRA${certificate ? ' y FIER' : ''}…`);
    const result = await options.fie().fetchFromSiltra({ certificate, from: day, to: day, source: certificate ? 'both' : 'folder' });
    for (const problem of result.problems ?? []) events.log('warn', problem);
    if (result.noResults) {
      events.log('info', `${result.noResults.title}. ${result.noResults.text}`);
      return { units: 0, failed: false, summary: { fies: 0 } };
    }
    // A file already added (uploaded by hand before) is no problem; only files that could not be read are.
    const level = result.upload.processed === 0 && result.upload.failed > 0 ? 'warn' : 'info';
    for (const line of processingToast(result.upload).lines) events.log(level, line);
    for (const file of result.upload.results) if (file.status === 'failed') events.log('error', `${file.fileName}: ${file.reason ?? 'no se ha podido procesar'}`);
    events.progress(result.upload.processed + result.upload.alreadyAdded, result.found);
    return { units: result.upload.processed, failed: result.upload.processed === 0 && result.upload.failed > 0, summary: { fies: result.upload.processed } };
  }

  async function syncPending(job: RobotJob, events: RobotEvents, signal: AbortSignal): Promise<StepOutcome> {
    events.log('info', 'Sincronizando con A3 los partes pendientes…');
    const result = await options.fie().syncPending(job.runId, signal);
    if (!result) {
      events.log('info', NOTHING_PENDING_MESSAGE);
      return { units: 0, failed: false, summary: { sincronizados: 0, errores: 0 } };
    }
    // Error lines name the worker's NIF: the FIE list shows each entry's newest one (spec §8 lastError).
    for (const entry of result.results) {
      if (entry.state === 'error') events.log('error', `A3 no ha importado el parte de ${result.workers[entry.entryId] ?? 'un trabajador sin NIF'}: ${entry.error ?? ''}`);
    }
    events.log(result.failed === 0 ? 'info' : 'warn', `A3 ha importado ${result.synced} de ${result.results.length} partes.`);
    events.progress(result.synced, result.results.length);
    return { units: result.synced, failed: result.synced === 0 && result.failed > 0, summary: { sincronizados: result.synced, errores: result.failed } };
  }

  async function run(job: RobotJob, localProcess: FieLocalProcess, events: RobotEvents, signal: AbortSignal): Promise<RobotOutcome> {
    const steps = localProcess === 'get-fie-siltra' ? [fetchYesterday] : localProcess === 'sync-fie-a3' ? [syncPending] : [fetchYesterday, syncPending];
    const outcomes: StepOutcome[] = [];
    for (const step of steps) {
      if (signal.aborted) break;
      outcomes.push(await step(job, events, signal));
    }
    await mkdir(job.outputFolder, { recursive: true });
    return {
      kind: 'result',
      result: outcomes.some((outcome) => outcome.failed) ? 'Fail' : 'Success',
      usageUnits: outcomes.reduce((sum, outcome) => sum + outcome.units, 0),
      summary: Object.assign({}, ...outcomes.map((outcome) => outcome.summary)) as Record<string, number>,
      outputFolder: job.outputFolder,
      outputFileNames: [],
    };
  }

  // The innermost of the local-process runtimes: a process no runtime knows fails here, saying so.
  return withLocalProcessRunner(robots, (_localProcess): _localProcess is string => true, async (job, name, events, signal) =>
    isFieProcess(name) ? run(job, name, events, signal) : { kind: 'failed', message: unknownProcessMessage(name) },
  );
}

const isFieProcess = (name: string): name is FieLocalProcess => (FIE_LOCAL_PROCESSES as readonly string[]).includes(name);
