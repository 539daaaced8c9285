import type { ScheduledFlow } from '#shared/api/flows.ts';
import { fileInputValueSchema } from '#shared/api/flows.ts';
import type { AutopilotAppId } from '#shared/autopilot/state.ts';
import { AUTOPILOT_APP_IDS, AUTOPILOT_REFRESH_MS } from '#shared/autopilot/state.ts';
import { ALTAS_LOCAL_PROCESS_TITLES } from '../altas/local-processes.ts';
import { DEHU_LOCAL_PROCESS_TITLES } from '../dehu/local-processes.ts';
import { FIE_LOCAL_PROCESS_TITLES } from '../fie/local-processes.ts';
import type { IncomingTask } from './task-cache.ts';

/**
 * The autopilot's apps (spec §3 Autopilot app, §4 Autopilot app). Each app has a load that brings its
 * tasks into the cache; it runs once when the app becomes active and then on its refresh timer.
 * 'Robots para asesorías' loads this machine's schedules, 'Altas desasistidas' (altas-app.ts) the pending
 * registrations, 'Notificaciones' (notifications-app.ts) its DEHÚ check every 10 minutes.
 */
export interface AutopilotAppDefinition {
  id: AutopilotAppId;
  title: string;
  description: string;
  available: boolean;
  unavailableReason: string | null;
  needsCertificates: boolean;
  multipleCertificates: boolean;
}

export const AUTOPILOT_APPS: Record<AutopilotAppId, AutopilotAppDefinition> = {
  robots: {
    id: 'robots',
    title: 'Robots para asesorías',
    description: 'Lanza en este equipo, a su hora, los robots programados para él.',
    available: true,
    unavailableReason: null,
    needsCertificates: false,
    multipleCertificates: false,
  },
  altas: {
    id: 'altas',
    title: 'Altas desasistidas',
    description: 'Tramita las altas y bajas pendientes de tus clientes con los certificados que elijas.',
    available: true,
    unavailableReason: null,
    needsCertificates: true,
    multipleCertificates: true,
  },
  notificaciones: {
    id: 'notificaciones',
    title: 'Notificaciones',
    description: 'Revisa las notificaciones electrónicas de los certificados que elijas.',
    available: true,
    unavailableReason: null,
    needsCertificates: true,
    multipleCertificates: true,
  },
};

/** The cache's id of a scheduled flow's task. */
export const flowTaskId = (scheduleId: string): string => `flow:${scheduleId}`;

const MAX_SHOWN_VALUE = 40;

/** A scheduled flow as the panel lists it: the flow's name, where it runs, who scheduled it and with what. */
export function robotsTaskFrom(schedule: ScheduledFlow): IncomingTask {
  const inputs = Object.entries(schedule.flowInputs);
  const files = inputs.flatMap(([, value]) => fileInputValueSchema.safeParse(value).data?.map((file) => file.name) ?? []);
  const info: IncomingTask['info'] = [{ text: schedule.user.name || schedule.user.email, icon: 'user', tooltip: `Programado por ${schedule.user.email}` }];
  if (inputs.length > 0) {
    info.push({
      text: inputs.length === 1 ? '1 dato' : `${inputs.length} datos`,
      icon: 'inputs',
      tooltip: inputs.map(([key, value]) => `${key}: ${shownValue(value)}`).join(' · '),
    });
  }
  return {
    id: flowTaskId(schedule._id),
    scheduleId: schedule._id,
    title: schedule.browserFlowName,
    description: [schedule.machine ? `En ${schedule.machine.name}` : 'En este equipo', localProcessTitle(schedule.localProcess)].filter(Boolean).join(' · '),
    scheduledDate: schedule.scheduledDate,
    repeat: schedule.repeat ? { every: schedule.every, interval: schedule.interval } : null,
    info,
    items: files,
  };
}

const LOCAL_PROCESS_TITLES: Readonly<Record<string, string>> = { ...FIE_LOCAL_PROCESS_TITLES, ...ALTAS_LOCAL_PROCESS_TITLES, ...DEHU_LOCAL_PROCESS_TITLES };

/** A schedule's local process in words (the FIE, altas and DEHÚ ones); null for a robot's schedule or a process this PC does not know. */
function localProcessTitle(localProcess: string | null): string | null {
  return localProcess !== null && Object.hasOwn(LOCAL_PROCESS_TITLES, localProcess) ? (LOCAL_PROCESS_TITLES[localProcess] ?? null) : null;
}

function shownValue(value: unknown): string {
  const files = fileInputValueSchema.safeParse(value).data;
  if (files) return files.map((file) => file.name).join(', ');
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE - 1)}…` : text;
  }
  if (Array.isArray(value)) return `${value.length} elementos`;
  return value === null || value === undefined ? '—' : '…';
}

// ---------------------------------------------------------------------------------------------------
// Refresh timers

export type Every = (ms: number, tick: () => void) => { stop(): void };

/** setInterval that does not keep the process alive on its own. */
export const everyWithTimers: Every = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

export interface AppRefreshState {
  /** When its timer fires next; null while it is not refreshing. */
  nextRefreshAt: Date | null;
  /** Its last load failed: why, in Spanish. */
  problem: string | null;
}

export interface AppRefresher {
  /**
   * Apps that became active load once and start their timer; apps no longer active stop it.
   * Resolves when the loads it started have ended.
   */
  reconcile(active: readonly AutopilotAppId[]): Promise<void>;
  /** Loads an app now (once at a time: a load under way is joined). */
  refresh(app: AutopilotAppId): Promise<void>;
  state(app: AutopilotAppId): AppRefreshState;
  stopAll(): void;
}

export interface AppRefresherOptions {
  /** The apps that can load; an app without one is never refreshed. */
  loaders: Partial<Record<AutopilotAppId, () => Promise<void>>>;
  every: Every;
  now: () => Date;
  /** After every load (its tasks and nextRefreshAt changed). */
  changed: () => void;
  log: (message: string) => void;
}

export function createAppRefresher(options: AppRefresherOptions): AppRefresher {
  const timers = new Map<AutopilotAppId, { stop(): void }>();
  const loading = new Map<AutopilotAppId, Promise<void>>();
  const states = new Map<AutopilotAppId, AppRefreshState>(AUTOPILOT_APP_IDS.map((app) => [app, { nextRefreshAt: null, problem: null }]));
  const stateOf = (app: AutopilotAppId): AppRefreshState => states.get(app) ?? { nextRefreshAt: null, problem: null };
  const scheduleNext = (app: AutopilotAppId) => {
    stateOf(app).nextRefreshAt = timers.has(app) ? new Date(options.now().getTime() + AUTOPILOT_REFRESH_MS) : null;
  };

  function refresh(app: AutopilotAppId): Promise<void> {
    const load = options.loaders[app];
    if (!load) return Promise.resolve();
    const under = loading.get(app);
    if (under) return under;
    const run = load()
      .then(
        () => {
          stateOf(app).problem = null;
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          stateOf(app).problem = message;
          options.log(`Piloto automático: no se ha podido cargar '${app}': ${message}`);
        },
      )
      .finally(() => {
        loading.delete(app);
        scheduleNext(app);
        options.changed();
      });
    loading.set(app, run);
    return run;
  }

  return {
    async reconcile(active) {
      const started: Promise<void>[] = [];
      for (const app of AUTOPILOT_APP_IDS) {
        const shouldRun = active.includes(app) && options.loaders[app] !== undefined;
        const timer = timers.get(app);
        if (shouldRun && !timer) {
          timers.set(app, options.every(AUTOPILOT_REFRESH_MS, () => void refresh(app)));
          scheduleNext(app);
          started.push(refresh(app));
        } else if (!shouldRun && timer) {
          timer.stop();
          timers.delete(app);
          scheduleNext(app);
        }
      }
      await Promise.all(started);
    },
    refresh,
    state: stateOf,
    stopAll() {
      for (const timer of timers.values()) timer.stop();
      timers.clear();
      for (const app of AUTOPILOT_APP_IDS) scheduleNext(app);
    },
  };
}
