import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { schedule as cronSchedule } from 'node-cron';
import type { AutopilotApp, AutopilotAppId, AutopilotCertificate, AutopilotSnapshot, AutopilotTask } from '#shared/autopilot/state.ts';
import { AUTOPILOT_APP_IDS, AUTOPILOT_REFRESH_MS, isAppActive } from '#shared/autopilot/state.ts';
import { canRemoveTask } from '#shared/schedule/task-removal.ts';
import { DeviceError, NOT_LINKED_MESSAGE } from '../device/errors.ts';
import type { DeviceServerClient } from '../device/server-client.ts';
import { createAltasApp } from './altas-app.ts';
import { AUTOPILOT_APPS, createAppRefresher, everyWithTimers, robotsTaskFrom, type AppRefresher } from './apps.ts';
import { createNotificationsApp } from './notifications-app.ts';
import { createExecutionLoop, type Cron, type ExecutionLoop } from './loop.ts';
import { CACHE_FILE_NAME, isLiveClaim, TaskCache, type CachedTask } from './task-cache.ts';
import { AutopilotRefusal, type AutopilotOptions, type AutopilotService } from './types.ts';

export type { AutopilotOptions, AutopilotService } from './types.ts';
export { AutopilotRefusal } from './types.ts';

export const STOPPED_MESSAGE = 'El piloto automático se ha detenido: vuelve a abrir la aplicación.';
export const TASK_RUNNING_MESSAGE = 'Este robot se está ejecutando: espera a que termine para borrarlo';
export const TASK_GONE_MESSAGE = 'Este robot programado ya no está en la lista.';
export const ONE_CERTIFICATE_MESSAGE = 'Esta aplicación trabaja con un solo certificado.';

/** node-cron's schedule; the tick's promise is not handed to it (the loop itself keeps one task at a time). */
const nodeCron: Cron = (expression, tick) => {
  const task = cronSchedule(expression, () => void tick());
  return { stop: () => void task.destroy() };
};

/** A process that cannot be signalled for lack of rights still exists. */
function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Running {
  cache: TaskCache;
  loop: ExecutionLoop;
  refresher: AppRefresher;
}

/**
 * This PC's autopilot (spec §2 panel, §4 Autopilot app and Execution loop) as the agent and the
 * Electron main hold it: the task cache, the apps' loads and timers, the execution loop, and the
 * snapshot the bridge answers with. The loop runs always in the agent and, in the desktop app,
 * while the panel is open.
 */
export function createAutopilot(options: AutopilotOptions): AutopilotService {
  const { link, host } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((message: string) => console.error(message));
  const owner = `${process.pid}:${randomUUID()}`;
  const listeners = new Set<(snapshot: AutopilotSnapshot) => void>();

  let running: Running | null = null;
  let opening: Promise<Running> | null = null;
  let started = false;
  let stopped = false;
  let panelOpen = false;
  let unsubscribeLink: (() => void) | null = null;

  const linked = () => link.client() !== null && link.current() !== null;

  function appView(cache: TaskCache, refresher: AppRefresher, id: AutopilotAppId): AutopilotApp {
    const definition = AUTOPILOT_APPS[id];
    const settings = cache.appSettings(id);
    const shape = { ...definition, ...settings };
    const refresh = refresher.state(id);
    return {
      id,
      title: definition.title,
      description: definition.description,
      enabled: settings.enabled,
      active: isAppActive(cache.generalSwitch(), shape),
      available: definition.available,
      unavailableReason: definition.unavailableReason,
      needsCertificates: definition.needsCertificates,
      multipleCertificates: definition.multipleCertificates,
      certificates: settings.certificates,
      refreshEveryMs: AUTOPILOT_REFRESH_MS,
      nextRefreshAt: refresh.nextRefreshAt?.toISOString() ?? null,
      problem: refresh.problem,
    };
  }

  function taskView(task: CachedTask, nowMs: number): AutopilotTask {
    const executionInProgress = isLiveClaim(task, nowMs);
    return {
      id: task.id,
      app: task.app,
      title: task.title,
      description: task.description,
      scheduledDate: task.scheduledDate,
      done: task.done,
      removing: task.removing,
      executionInProgress,
      repeat: task.repeat,
      info: task.info,
      items: task.items,
      canBeRemoved: canRemoveTask({ executionInProgress, removing: task.removing }),
      runId: task.runId,
      scheduleId: task.scheduleId,
    };
  }

  function build({ cache, loop, refresher }: Running): AutopilotSnapshot {
    const at = now();
    return {
      enabled: cache.generalSwitch(),
      looping: loop.running,
      linked: linked(),
      apps: AUTOPILOT_APP_IDS.map((id) => appView(cache, refresher, id)),
      tasks: cache.tasks().map((task) => taskView(task, at.getTime())),
      at: at.toISOString(),
    };
  }

  /** The apps whose tasks may load and run now: active ones, and none while this PC is unlinked. */
  function activeApps(cache: TaskCache): AutopilotAppId[] {
    if (!linked()) return [];
    const general = cache.generalSwitch();
    return AUTOPILOT_APP_IDS.filter((id) => isAppActive(general, { ...AUTOPILOT_APPS[id], ...cache.appSettings(id) }));
  }

  function tell(snapshot: AutopilotSnapshot): void {
    if (!stopped) for (const listener of listeners) listener(snapshot);
  }

  function changed(): void {
    if (running && listeners.size > 0) tell(build(running));
  }

  async function loadRobots(cache: TaskCache): Promise<void> {
    const client = link.client();
    const record = link.current();
    if (!client || !record || stopped) return;
    try {
      const schedules = await client.schedules();
      if (!stopped) cache.syncApp('robots', schedules.map(robotsTaskFrom), now());
    } catch (error) {
      if (error instanceof DeviceError && error.reason === 'token-refused') await link.tokenRefused(record);
      throw error;
    }
  }

  function ready(): Promise<Running> {
    if (stopped) return Promise.reject(new AutopilotRefusal('FAILED', STOPPED_MESSAGE));
    opening ??= (async () => {
      await link.ready();
      mkdirSync(options.dataFolder, { recursive: true });
      const cache = TaskCache.open(join(options.dataFolder, CACHE_FILE_NAME));
      // A process that died holding a task lets go of it now: this loop launches the slot again and gets its run.
      cache.releaseDeadClaims(options.isProcessAlive ?? isProcessAlive, now());
      const altas = options.altas ? createAltasApp(options.altas, { now, log }) : null;
      const notifications = options.dehu ? createNotificationsApp(options.dehu, { now, log }) : null;
      const loaders = {
        robots: () => loadRobots(cache),
        ...(altas ? { altas: () => altas.load(cache) } : {}),
        ...(notifications ? { notificaciones: () => notifications.load(cache) } : {}),
      };
      const refresher = createAppRefresher({ loaders, every: options.every ?? everyWithTimers, now, changed, log });
      const loop = createExecutionLoop({
        cache,
        link,
        owner,
        now,
        log,
        retryAfterAbortMs: options.retryAfterAbortMs ?? 60_000,
        followEveryMs: options.followEveryMs ?? 1000,
        cron: options.cron ?? nodeCron,
        activeApps: () => activeApps(cache),
        resync: () => refresher.refresh('robots'),
        changed,
        runAppTask: async (task, signal) => {
          if (task.app === 'altas' && altas) {
            await altas.run(task, cache, signal);
            return true;
          }
          if (task.app === 'notificaciones' && notifications) {
            await notifications.run(task, cache, signal);
            // The loop drops the task once this returns; the load right after makes the next one (+10 min).
            setImmediate(() => void (stopped || refresher.refresh('notificaciones')));
            return true;
          }
          return false;
        },
      });
      running = { cache, loop, refresher };
      return running;
    })().catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  }

  /** After a switch, a certificate or the link changed: timers follow the apps' activity, the loop the host's rule. */
  async function reconcile(parts: Running): Promise<void> {
    if (!started || stopped) return;
    const loads = parts.refresher.reconcile(activeApps(parts.cache));
    if (host === 'agent' || panelOpen) parts.loop.start();
    else await parts.loop.stop();
    await loads;
  }

  /** The snapshot after a command: built once, for the caller and the listeners alike. */
  async function answer(parts: Running): Promise<AutopilotSnapshot> {
    const snapshot = build(parts);
    tell(snapshot);
    return snapshot;
  }

  return {
    async start() {
      const parts = await ready();
      if (started) return;
      started = true;
      unsubscribeLink = link.onChange(() => {
        void reconcile(parts).then(changed);
      });
      await reconcile(parts);
      changed();
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      unsubscribeLink?.();
      const parts = running ?? (opening ? await opening.catch(() => null) : null);
      if (!parts) return;
      parts.refresher.stopAll();
      await parts.loop.stop();
      parts.cache.close();
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async snapshot() {
      const parts = await ready();
      parts.cache.purgeDone(now());
      return build(parts);
    },

    async setSwitch(app, enabled) {
      const parts = await ready();
      if (app === 'all') parts.cache.setGeneralSwitch(enabled);
      else {
        const definition = AUTOPILOT_APPS[app];
        if (enabled && !definition.available) throw new AutopilotRefusal('UNAVAILABLE', definition.unavailableReason ?? definition.title);
        parts.cache.setAppEnabled(app, enabled);
      }
      // An app that became active loads in the background; its tasks come with the next change.
      void reconcile(parts);
      return answer(parts);
    },

    async setCertificates(app, certificates) {
      const parts = await ready();
      const definition = AUTOPILOT_APPS[app];
      const unique = [...new Map(certificates.map((certificate): [string, AutopilotCertificate] => [certificate.fingerprint, certificate])).values()];
      if (!definition.multipleCertificates && unique.length > 1) throw new AutopilotRefusal('FORBIDDEN', ONE_CERTIFICATE_MESSAGE);
      parts.cache.setCertificates(app, unique);
      void reconcile(parts);
      return answer(parts);
    },

    async deleteTask(taskId) {
      const parts = await ready();
      const { cache } = parts;
      const task = cache.task(taskId);
      if (!task) throw new AutopilotRefusal('NOT_FOUND', TASK_GONE_MESSAGE);
      if (isLiveClaim(task, now().getTime())) throw new AutopilotRefusal('FORBIDDEN', TASK_RUNNING_MESSAGE);
      // A done task is no longer on the server; an app's own task never was.
      if (task.done || task.scheduleId === null) {
        cache.drop(taskId);
        return answer(parts);
      }
      const client = link.client();
      if (!client) throw new AutopilotRefusal('NOT_LINKED', NOT_LINKED_MESSAGE);
      const marked = cache.markRemoving(taskId, now());
      if (marked === 'missing') throw new AutopilotRefusal('NOT_FOUND', TASK_GONE_MESSAGE);
      if (marked === 'running') throw new AutopilotRefusal('FORBIDDEN', TASK_RUNNING_MESSAGE);
      changed();
      try {
        await removeFromServer(client, task.scheduleId, task.scheduledDate);
      } catch (error) {
        cache.unmarkRemoving(taskId);
        changed();
        if (error instanceof DeviceError) throw new AutopilotRefusal(error.reason === 'token-refused' ? 'NOT_LINKED' : 'FAILED', error.message);
        throw error;
      }
      cache.drop(taskId);
      return answer(parts);
    },

    async setPanelOpen(open) {
      panelOpen = open;
      const parts = await ready();
      await reconcile(parts);
      return answer(parts);
    },
  };
}

/** Deletes a schedule the user removed; one the user moved meanwhile is deleted at its new date; one already gone is fine. */
async function removeFromServer(client: DeviceServerClient, scheduleId: string, scheduledDate: string): Promise<void> {
  try {
    await client.removeSchedule(scheduleId, scheduledDate);
  } catch (error) {
    if (!(error instanceof DeviceError)) throw error;
    if (error.reason === 'not-found') return;
    if (error.reason !== 'conflict') throw error;
    const check = await client.checkSchedule(scheduleId);
    if (!check.schedule) return;
    await client.removeSchedule(scheduleId, check.schedule.scheduledDate).catch((again: unknown) => {
      if (!(again instanceof DeviceError && again.reason === 'not-found')) throw again;
    });
  }
}
