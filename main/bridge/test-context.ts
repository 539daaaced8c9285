import type { AutopilotApp, AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { AUTOPILOT_REFRESH_MS, autopilotSnapshotSchema, isAppActive } from '#shared/autopilot/state.ts';
import type { AutopilotControl } from '../autopilot/types.ts';
import type { BridgeContext, WindowControls } from './context.ts';

/** A context with fakes for handler tests; override what a test cares about. */
export function fakeContext(overrides: Partial<BridgeContext> = {}): BridgeContext {
  return {
    host: 'agent',
    appVersion: '1.2.3',
    startedAt: new Date('2026-11-23T08:00:00Z'),
    window: null,
    machine: async () => ({ machineHashCode: 'a'.repeat(64), machineName: 'OFICINA-01' }),
    updateFeedUrl: null,
    fetch: async () => new Response('{}'),
    runningRobots: () => 0,
    certificates: {
      list: async () => ({ certificates: [], problems: [], folder: null }),
      setFolder: async (folder) => folder,
      unlock: async () => 0,
      clientCertificate: async () => {
        throw new Error('El certificado elegido no está en este dispositivo');
      },
    },
    device: {
      status: async () => ({ linked: false, serverUrl: null, machine: null, problem: null }),
      link: async (serverUrl) => ({ linked: true, serverUrl, machine: { _id: 'maquina-1', name: 'OFICINA-01' }, problem: null }),
      unlink: async () => ({ linked: false, serverUrl: null, machine: null, problem: null }),
    },
    robots: {
      launch: async () => {
        throw new Error('fakeContext: no robots here; pass robots to run one');
      },
      running: () => 0,
      outputRoot: '/nonexistent/autoasesor-resultados',
    },
    shell: { openFolder: async () => undefined, chooseFiles: null },
    autopilot: fakeAutopilot(),
    fie: {
      fetchFromSiltra: async () => {
        throw new Error('fakeContext: no FIE here; pass fie to fetch');
      },
      importToA3: async () => {
        throw new Error('fakeContext: no A3 here; pass fie to import');
      },
      syncPending: async () => null,
    },
    altas: {
      pending: async () => ({ red: [], a3: [] }),
      syncToRed: async () => {
        throw new Error('fakeContext: no RED here; pass altas to register');
      },
      syncToA3: async () => {
        throw new Error('fakeContext: no A3 here; pass altas to import');
      },
    },
    dehu: {
      update: async () => {
        throw new Error('fakeContext: no DEHÚ here; pass dehu to update');
      },
      open: async () => {
        throw new Error('fakeContext: no DEHÚ here; pass dehu to open');
      },
    },
    mail: {
      connect: async () => {
        throw new Error('fakeContext: no browser here; pass mail to connect');
      },
    },
    now: () => new Date('2026-11-23T08:00:05Z'),
    ...overrides,
  };
}

export function fakeWindow(): WindowControls & { calls: string[] } {
  let maximized = false;
  const calls: string[] = [];
  return {
    calls,
    minimize: () => void calls.push('minimize'),
    toggleMaximize: () => {
      calls.push('toggleMaximize');
      maximized = !maximized;
      return maximized;
    },
    close: () => void calls.push('close'),
  };
}

export type AutopilotCall = { [M in keyof AutopilotControl]: { method: M; args: Parameters<AutopilotControl[M]> } }[keyof AutopilotControl];

export interface FakeAutopilot extends AutopilotControl {
  /** Every call, in order, refused ones too. */
  calls: AutopilotCall[];
  /** The next call of this method throws the error (an AutopilotRefusal, or anything else) and changes nothing. */
  failNext(method: keyof AutopilotControl, error: Error): void;
}

/**
 * An autopilot for handler tests: it records calls and keeps one snapshot (checked against the shared
 * schema) that switches, certificates, deletions and the panel change. It pulls and runs nothing.
 */
export function fakeAutopilot(now: () => Date = () => new Date('2026-11-23T08:00:05Z')): FakeAutopilot {
  const app = (id: AutopilotApp['id'], title: string, needsCertificates: boolean, available: boolean): AutopilotApp => ({
    id,
    title,
    description: `${title} en este equipo`,
    enabled: true,
    active: false,
    available,
    unavailableReason: available ? null : 'Esta aplicación todavía no está disponible en este equipo',
    needsCertificates,
    multipleCertificates: id === 'notificaciones',
    certificates: [],
    refreshEveryMs: AUTOPILOT_REFRESH_MS,
    nextRefreshAt: null,
    problem: null,
  });
  const state: AutopilotSnapshot = autopilotSnapshotSchema.parse({
    enabled: true,
    looping: false,
    linked: true,
    apps: [app('robots', 'Robots para asesorías', false, true), app('altas', 'Altas desasistidas', true, false), app('notificaciones', 'Notificaciones', true, true)],
    tasks: [
      {
        id: 'flow:programacion-1',
        app: 'robots',
        title: 'Descargar justificantes',
        description: 'Programado por ana@asesoria.example',
        scheduledDate: '2026-11-23T09:30:00.000Z',
        done: false,
        removing: false,
        executionInProgress: false,
        repeat: { every: 1, interval: 'days' },
        info: [],
        items: [],
        canBeRemoved: true,
        runId: null,
        scheduleId: 'programacion-1',
      },
    ],
    at: now().toISOString(),
  });
  const calls: AutopilotCall[] = [];
  const failures = new Map<keyof AutopilotControl, Error>();

  /** Records the call, throws a failure set for it, else applies the change and answers the snapshot after it. */
  const answer = async (call: AutopilotCall, change: () => void = () => undefined): Promise<AutopilotSnapshot> => {
    calls.push(call);
    const failure = failures.get(call.method);
    if (failure) {
      failures.delete(call.method);
      throw failure;
    }
    change();
    for (const each of state.apps) each.active = isAppActive(state.enabled, each);
    state.at = now().toISOString();
    return structuredClone(state);
  };
  const appById = (id: AutopilotApp['id']) => state.apps.find((each) => each.id === id)!;

  return {
    calls,
    failNext: (method, error) => void failures.set(method, error),
    snapshot: () => answer({ method: 'snapshot', args: [] }),
    setSwitch: (target, enabled) =>
      answer({ method: 'setSwitch', args: [target, enabled] }, () => {
        if (target === 'all') state.enabled = enabled;
        else appById(target).enabled = enabled;
      }),
    setCertificates: (target, certificates) =>
      answer({ method: 'setCertificates', args: [target, certificates] }, () => void (appById(target).certificates = certificates)),
    deleteTask: (taskId) => answer({ method: 'deleteTask', args: [taskId] }, () => void (state.tasks = state.tasks.filter((task) => task.id !== taskId))),
    setPanelOpen: (open) => answer({ method: 'setPanelOpen', args: [open] }, () => void (state.looping = open)),
  };
}
