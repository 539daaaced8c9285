import { mkdir } from 'node:fs/promises';
import { UPDATE_NOTIFICATIONS_PROCESS } from '#shared/api/notifications.ts';
import { withLocalProcessRunner } from '../robots/local-process-runtime.ts';
import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime } from '../robots/types.ts';
import type { DehuDesktop } from './types.ts';

/**
 * DEHÚ's local process (spec §3 Scheduled flow localProcess), run on this PC instead of a robot through
 * the same run as any scheduled robot: update-dehu-notifications reads the mailbox of every watched
 * certificate on this PC (Localiza + LocalizaRealizadas) and sends it to the server. Consulting DEHÚ is not
 * charged: 0 units. Composed over the other runtimes (FIE, altas), which refuse what they do not know.
 */
export const DEHU_LOCAL_PROCESS_TITLES: Record<typeof UPDATE_NOTIFICATIONS_PROCESS, string> = {
  [UPDATE_NOTIFICATIONS_PROCESS]: 'Actualiza las notificaciones DEHÚ de los certificados vigilados en este equipo',
};

export interface DehuLocalProcessOptions {
  /** Read when the process starts (the service is made after the device link that needs this runtime). */
  dehu: () => DehuDesktop;
}

async function updateAll(job: RobotJob, events: RobotEvents, signal: AbortSignal, dehu: DehuDesktop): Promise<RobotOutcome> {
  const { certificates } = await dehu.update({ log: events.log, signal });
  const done = certificates.filter((each) => each.state === 'done');
  const found = done.reduce((sum, each) => sum + each.found, 0);
  const added = done.reduce((sum, each) => sum + each.added, 0);
  events.progress(done.length, certificates.length);
  events.log(done.length === certificates.length ? 'info' : 'warn', `Actualizados ${done.length} de ${certificates.length} certificado(s): ${found} notificación(es), ${added} nueva(s).`);
  await mkdir(job.outputFolder, { recursive: true });
  return {
    kind: 'result',
    // Every certificate failed: the run failed (each one's reason is on its line and on the server).
    result: done.length === 0 && certificates.length > 0 ? 'Fail' : 'Success',
    usageUnits: 0,
    summary: { certificados: certificates.length, actualizados: done.length, errores: certificates.length - done.length, encontradas: found, nuevas: added },
    outputFolder: job.outputFolder,
    outputFileNames: [],
  };
}

const isDehuProcess = (name: string): name is typeof UPDATE_NOTIFICATIONS_PROCESS => name === UPDATE_NOTIFICATIONS_PROCESS;

/** A runtime that runs update-dehu-notifications itself and hands every other job to `inner`; a stop ends the update before its next certificate. */
export function withDehuLocalProcesses(inner: RobotRuntime, options: DehuLocalProcessOptions): RobotRuntime {
  return withLocalProcessRunner(inner, isDehuProcess, (job, _name, events, signal) => updateAll(job, events, signal, options.dehu()));
}
