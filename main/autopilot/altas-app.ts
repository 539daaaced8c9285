import type { PendingSummary } from '#shared/api/altas.ts';
import type { AltasDesktop } from '../altas/types.ts';
import type { IncomingTask } from './task.ts';
import type { CachedTask, TaskCache } from './task-cache.ts';

/**
 * The 'Altas desasistidas' app (spec §4 Autopilot app, Execution loop: 'Altas task: created when
 * unprocessed forms exist; removed after syncing'). Its load asks the server what is left to register in
 * RED and keeps one task while anything is; the loop runs it with the app's first certificate
 * (syncToRed of every registration still pending then) and removes it. Nothing pending: no task. One
 * RED refused waits ALTAS_RETRY_AFTER_MS before it makes a task again.
 */
export const ALTAS_TASK_ID = 'altas:red';
export const ALTAS_TASK_TITLE = 'Altas en Sistema RED';
export const NO_CERTIFICATE_MESSAGE = 'Añade un certificado a «Altas desasistidas» para registrar las altas en RED.';

export type AltasForAutopilot = Pick<AltasDesktop, 'pending' | 'syncToRed'>;

const altasCount = (count: number) => (count === 1 ? '1 alta pendiente' : `${count} altas pendientes`);

/** The task while registrations are pending: due at once (or when it first appeared, so a refresh does not move it). */
export function altasTaskFrom(red: PendingSummary['red'], scheduledDate: string): IncomingTask {
  return {
    id: ALTAS_TASK_ID,
    scheduleId: null,
    title: ALTAS_TASK_TITLE,
    description: `Registra en Sistema RED ${red.length === 1 ? 'el alta recibida' : `las ${red.length} altas recibidas`} con el certificado de la aplicación`,
    scheduledDate,
    repeat: null,
    info: [{ text: altasCount(red.length), icon: 'inputs', tooltip: null }],
    items: red.map((each) => each.title),
  };
}

/**
 * A registration RED refused is not tried again before this: a fatal #DIL answer needs the advisor's
 * correction, and trying it at every refresh (20 s) would only ask RED the same again and again.
 */
export const ALTAS_RETRY_AFTER_MS = 60 * 60_000;

export interface AltasApp {
  /** The app's load: one task while RED registrations are pending (and not refused within the hour), none otherwise. */
  load(cache: TaskCache): Promise<void>;
  /**
   * Runs the task: those registrations into RED with the app's first certificate. Throws (and the loop
   * tries again later) when RED could not be reached at all; each refusal is the server's to show.
   */
  run(task: CachedTask, cache: TaskCache, signal: AbortSignal): Promise<void>;
}

export function createAltasApp(altas: AltasForAutopilot, options: { now: () => Date; log: (message: string) => void }): AltasApp {
  /** When each registration was last refused here (this process's memory: a restart tries once more). */
  const refusedAt = new Map<string, number>();

  async function toRegister(): Promise<PendingSummary['red']> {
    const { red } = await altas.pending();
    const nowMs = options.now().getTime();
    return red.filter((each) => nowMs - (refusedAt.get(each._id) ?? -Infinity) >= ALTAS_RETRY_AFTER_MS);
  }

  return {
    async load(cache) {
      const now = options.now();
      const red = await toRegister();
      if (red.length === 0) {
        cache.syncApp('altas', [], now);
        return;
      }
      const known = cache.task(ALTAS_TASK_ID);
      cache.syncApp('altas', [altasTaskFrom(red, known && !known.done ? known.scheduledDate : now.toISOString())], now);
    },

    async run(task, cache, signal) {
      const [certificate] = cache.appSettings('altas').certificates;
      if (!certificate) throw new Error(NO_CERTIFICATE_MESSAGE);
      const red = await toRegister();
      if (red.length === 0) return;
      const result = await altas.syncToRed(
        red.map((each) => each._id),
        certificate.fingerprint,
        { log: (level, text) => void (level !== 'info' && options.log(`Piloto automático (${task.title}): ${text}`)), signal },
      );
      const nowMs = options.now().getTime();
      for (const each of result.results) if (each.state === 'error') refusedAt.set(each.submissionId, nowMs);
      options.log(`Piloto automático: ${result.registered} alta(s) registrada(s) en RED con ${certificate.commonName}; ${result.failed} con error.`);
    },
  };
}
