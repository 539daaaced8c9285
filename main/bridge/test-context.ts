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
