import type { DehuDesktop } from '../dehu/types.ts';
import type { IncomingTask } from './task.ts';
import type { CachedTask, TaskCache } from './task-cache.ts';

/**
 * The 'Notificaciones' app (spec §4 Autopilot app, Execution loop: 'Notifications task: created at once,
 * and re-created 10 minutes after each run'; §9). Its load keeps one task: due now when the app becomes
 * active, and NOTIFICATIONS_RECHECK_MS after the last run ended once one has. The loop runs it with the
 * app's certificates (DehuDesktop.update: Localiza + LocalizaRealizadas, each reported to the server).
 */
export const NOTIFICATIONS_TASK_ID = 'notificaciones:dehu';
export const NOTIFICATIONS_TASK_TITLE = 'Notificaciones DEHÚ';
/** Spec §9: notifications are checked again 10 minutes after each run. */
export const NOTIFICATIONS_RECHECK_MS = 10 * 60_000;
export const NO_NOTIFICATIONS_CERTIFICATE_MESSAGE = 'Añade un certificado a «Notificaciones» para consultar DEHÚ.';

export type DehuForAutopilot = Pick<DehuDesktop, 'update'>;

export function notificationsTaskFrom(certificates: readonly { commonName: string }[], scheduledDate: string): IncomingTask {
  return {
    id: NOTIFICATIONS_TASK_ID,
    scheduleId: null,
    title: NOTIFICATIONS_TASK_TITLE,
    description:
      certificates.length === 1 ? 'Consulta en DEHÚ las notificaciones del certificado de la aplicación' : `Consulta en DEHÚ las notificaciones de los ${certificates.length} certificados de la aplicación`,
    scheduledDate,
    repeat: null,
    info: [{ text: certificates.length === 1 ? '1 certificado' : `${certificates.length} certificados`, icon: 'inputs', tooltip: null }],
    items: certificates.map((certificate) => certificate.commonName),
  };
}

export interface NotificationsApp {
  load(cache: TaskCache): Promise<void>;
  /** Updates the app's certificates; throws (and the loop retries later) when nothing could be asked at all. */
  run(task: CachedTask, cache: TaskCache, signal: AbortSignal): Promise<void>;
}

export function createNotificationsApp(dehu: DehuForAutopilot, options: { now: () => Date; log: (message: string) => void }): NotificationsApp {
  /** When the last run ended (this process's memory: after a restart the task is due at once, as on activation). */
  let lastRunEndedAt: Date | null = null;

  return {
    async load(cache) {
      const now = options.now();
      const { certificates } = cache.appSettings('notificaciones');
      if (certificates.length === 0) {
        cache.syncApp('notificaciones', [], now);
        return;
      }
      const known = cache.task(NOTIFICATIONS_TASK_ID);
      const due = lastRunEndedAt ? new Date(lastRunEndedAt.getTime() + NOTIFICATIONS_RECHECK_MS).toISOString() : known && !known.done ? known.scheduledDate : now.toISOString();
      cache.syncApp('notificaciones', [notificationsTaskFrom(certificates, due)], now);
    },

    async run(task, cache, signal) {
      const { certificates } = cache.appSettings('notificaciones');
      if (certificates.length === 0) throw new Error(NO_NOTIFICATIONS_CERTIFICATE_MESSAGE);
      const result = await dehu.update({
        certificates: certificates.map((certificate) => certificate.fingerprint),
        log: (level, text) => void (level !== 'info' && options.log(`Piloto automático (${task.title}): ${text}`)),
        signal,
      });
      lastRunEndedAt = options.now();
      const done = result.certificates.filter((each) => each.state === 'done');
      const added = done.reduce((sum, each) => sum + each.added, 0);
      options.log(`Piloto automático: notificaciones DEHÚ de ${done.length} de ${result.certificates.length} certificado(s) actualizadas; ${added} nueva(s).`);
    },
  };
}
