import { describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async () => ({ ok: true, data: { minimized: true } }));
const listeners: ((event: unknown, name: string, payload: unknown) => void)[] = [];

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke,
    on: (_channel: string, listener: (typeof listeners)[number]) => listeners.push(listener),
    removeListener: (_channel: string, listener: (typeof listeners)[number]) => listeners.splice(listeners.indexOf(listener), 1),
  },
}));

await import('./index.ts');
const desktop = exposed.desktop as { invoke: (command: string, args?: unknown) => Promise<unknown>; on: (event: string, cb: (payload: unknown) => void) => () => void };

describe('preload', () => {
  it('exposes only invoke and on', () => {
    expect(Object.keys(exposed)).toEqual(['desktop']);
    expect(Object.keys(desktop).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract commands and refuses others without touching IPC', async () => {
    await expect(desktop.invoke('Minimize', {})).resolves.toEqual({ ok: true, data: { minimized: true } });
    expect(invoke).toHaveBeenCalledWith('bridge:invoke', 'Minimize', {});
    await expect(desktop.invoke('RunShellCommand', { cmd: 'rm -rf /' })).resolves.toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(invoke).toHaveBeenCalledTimes(1);
  });

  it('delivers only the subscribed event and unsubscribes', () => {
    const received: unknown[] = [];
    const off = desktop.on('AppStatus', (payload) => received.push(payload));
    for (const listener of [...listeners]) {
      listener({}, 'AppStatus', { host: 'electron' });
      listener({}, 'SomethingElse', { host: 'x' });
    }
    expect(received).toEqual([{ host: 'electron' }]);
    off();
    expect(listeners).toHaveLength(0);
    expect(desktop.on('NotAnEvent', () => undefined)()).toBeUndefined();
  });
});
