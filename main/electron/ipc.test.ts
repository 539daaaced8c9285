import { describe, expect, it, vi } from 'vitest';
import { fakeContext, fakeWindow } from '../bridge/test-context.ts';

type InvokeListener = (event: { senderFrame?: { url: string } }, command: unknown, args: unknown) => Promise<unknown>;
const handlers = new Map<string, InvokeListener>();

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: InvokeListener) => handlers.set(channel, listener),
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));

const { registerBridge } = await import('./ipc.ts');

describe('registerBridge', () => {
  it('runs commands for our renderer and refuses other pages', async () => {
    const window = fakeWindow();
    const unregister = registerBridge(fakeContext({ window }), () => 'http://localhost:8081');
    const invoke = handlers.get('bridge:invoke');
    if (!invoke) throw new Error('bridge channel not registered');

    await expect(invoke({ senderFrame: { url: 'http://localhost:8081/home' } }, 'Minimize', {})).resolves.toEqual({ ok: true, data: { minimized: true } });
    await expect(invoke({ senderFrame: { url: 'https://evil.example/' } }, 'CloseWindow', {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await expect(invoke({}, 'CloseWindow', {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(window.calls).toEqual(['minimize']);

    unregister();
    expect(handlers.has('bridge:invoke')).toBe(false);
  });
});
