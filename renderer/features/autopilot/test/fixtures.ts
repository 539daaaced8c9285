import { afterEach, beforeEach, vi } from 'vitest';
import { act } from '@testing-library/react';
import type { FlowLog, ScheduledFlow } from '#shared/api/flows.ts';
import type { AutopilotApp, AutopilotSnapshot, AutopilotTask } from '#shared/autopilot/state.ts';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { jsonResponse } from '../../../test/renderApp.tsx';

/** 10 March 2025, 11:00 in Madrid (UTC+1). */
export const NOW = new Date('2025-03-10T10:00:00.000Z');

/** Each test of the file starts at NOW (only Date is faked: timers run) and leaves no stubbed global (fetch) behind. */
export function eachTestAtNow() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

export function task(overrides: Partial<AutopilotTask> = {}): AutopilotTask {
  return {
    id: 'flow:s1', app: 'robots', title: 'Modelo 111', description: 'Presentación trimestral', scheduledDate: '2025-03-10T12:30:00.000Z',
    done: false, removing: false, executionInProgress: false, repeat: null, info: [], items: [], canBeRemoved: true, runId: null, scheduleId: 's1',
    ...overrides,
  };
}

export function app(overrides: Partial<AutopilotApp> & Pick<AutopilotApp, 'id' | 'title'>): AutopilotApp {
  return {
    description: '', enabled: false, active: false, available: true, unavailableReason: null, needsCertificates: false, multipleCertificates: false,
    certificates: [], refreshEveryMs: 20_000, nextRefreshAt: null, problem: null, ...overrides,
  };
}

export function snapshot(overrides: Partial<AutopilotSnapshot> = {}): AutopilotSnapshot {
  return {
    enabled: true, looping: true, linked: true, at: NOW.toISOString(), tasks: [],
    apps: [
      app({ id: 'robots', title: 'Robots para asesorías', description: 'Lanza los robots programados en este equipo', enabled: true, active: true, nextRefreshAt: '2025-03-10T10:00:12.000Z' }),
      app({ id: 'altas', title: 'Altas desasistidas', needsCertificates: true, multipleCertificates: true, available: false, unavailableReason: 'Disponible cuando llegue el módulo de altas' }),
      app({ id: 'notificaciones', title: 'Notificaciones', needsCertificates: true }),
    ],
    ...overrides,
  };
}

export const certificate = (digit: string, commonName: string): LocalCertificate => ({
  fingerprint: digit.repeat(64), serialNumber: 'ABC123', subjectString: `CN=${commonName}, C=ES`, commonName, issuer: 'AC FNMT Usuarios',
  notBefore: '2024-01-01T00:00:00Z', notAfter: '2099-06-30T10:00:00Z', nifVat: '99999999R', kind: 'person', store: 'nss', location: `nss:${commonName}`, holderNif: null,
});

type Answer = (args: never) => unknown;

/**
 * A desktop bridge with an autopilot behind it: commands answer with the snapshot after them (a
 * command given in `answers` answers that instead; one without either is UNKNOWN_COMMAND), every call
 * is recorded, and emit() pushes the Autopilot event.
 */
export function fakeAutopilotBridge(initial: AutopilotSnapshot, answers: Partial<Record<BridgeCommand, Answer>> = {}) {
  let state = initial;
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const listeners = new Set<(payload: AutopilotSnapshot) => void>();
  const answer = (next: AutopilotSnapshot) => {
    state = next;
    return { ok: true, data: state };
  };
  const builtIn: Partial<Record<BridgeCommand, (args: never) => unknown>> = {
    GetAutopilot: () => answer(state),
    SetAutopilotPanelOpen: (args: { open: boolean }) => answer({ ...state, looping: args.open }),
    SetAutopilotSwitch: (args: { app: string; enabled: boolean }) =>
      answer(args.app === 'all' ? { ...state, enabled: args.enabled } : { ...state, apps: state.apps.map((one) => (one.id === args.app ? { ...one, enabled: args.enabled } : one)) }),
    SetAutopilotCertificates: (args: { app: string; certificates: AutopilotApp['certificates'] }) =>
      answer({ ...state, apps: state.apps.map((one) => (one.id === args.app ? { ...one, certificates: args.certificates } : one)) }),
    DeleteAutopilotTask: (args: { taskId: string }) => answer({ ...state, tasks: state.tasks.filter((one) => one.id !== args.taskId) }),
  };
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const handler = (answers[command] ?? builtIn[command]) as ((args: unknown) => unknown) | undefined;
      return handler ? handler(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: (event: string, callback: (payload: AutopilotSnapshot) => void) => {
      if (event !== 'Autopilot') return () => undefined;
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
  } as unknown as BridgeClient;
  const emit = (next: AutopilotSnapshot) => act(() => {
    state = next;
    listeners.forEach((listener) => listener(next));
  });
  const argsOf = (command: BridgeCommand) => calls.filter((call) => call.command === command).map((call) => call.args);
  return { bridge, calls, argsOf, emit, listeners };
}

export const SCHEDULE_ID = '5f0c3a9e-2b1d-4c8e-9f6a-1d2e3f4a5b6c';
export const OTHER_SCHEDULE_ID = '6a1d4b0f-3c2e-4d9f-8a7b-2e3f4a5b6c7d';

export function schedule(overrides: Partial<ScheduledFlow> = {}): ScheduledFlow {
  return {
    _id: SCHEDULE_ID, browserFlowName: 'Modelo 111', browserFlow: 'modelo-111', localProcess: null, scheduledDate: '2025-03-10T12:30:00.000Z',
    repeat: true, every: 1, interval: 'months', user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: { _id: 'm1', name: 'PC oficina' },
    flowInputs: {}, sendOutputToServer: true, updatedAt: '2025-03-01T00:00:00.000Z', ...overrides,
  };
}

export function flowLog(overrides: Partial<FlowLog> = {}): FlowLog {
  return {
    _id: 'log-1', browserFlow: { _id: 'modelo-111', name: 'Modelo 111' }, result: 'Success', state: 'finished', stoppedByUser: false,
    createAt: '2025-02-10T12:30:05.000Z', finishedAt: '2025-02-10T12:31:00.000Z', scheduled: true,
    browserFlowSchedule: { _id: SCHEDULE_ID, machine: { name: 'PC oficina' } }, successfulIterations: 1, totalIterations: 1, usageHistory: [],
    outputFileNames: [], outputFolder: null, user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: { _id: 'm1', name: 'PC oficina' }, remote: true,
    ...overrides,
  };
}

type Handler = (url: URL) => Response | Promise<Response>;

/** fetch answering by "METHOD /path"; records "METHOD /path?query". */
export function stubApi(routes: Record<string, Handler>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(`${key}${url.search}`);
    const handler = routes[key];
    return handler ? handler(url) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}
