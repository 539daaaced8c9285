import { describe, expect, it, vi } from 'vitest';
import { readAgentConfig } from './agent.ts';
import { selectBridge } from './client.ts';
import type { DesktopPreload } from './types.ts';

const hash = 'a'.repeat(64);

/** Just enough of a WebSocket for the agent client: records what it sends, lets the test answer. */
class FakeSocket extends EventTarget {
  readyState = 0;
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
  }
  send(text: string) {
    this.sent.push(text);
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  receive(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  close() {
    this.readyState = 3;
    this.dispatchEvent(new Event('close'));
  }
}

function agentEnvironment(stored: unknown) {
  const sockets: FakeSocket[] = [];
  const openSocket = (url: string) => {
    const socket = new FakeSocket(url);
    sockets.push(socket);
    return socket as unknown as WebSocket;
  };
  return { sockets, environment: { storedAgentConfig: JSON.stringify(stored), openSocket } };
}

describe('selectBridge', () => {
  it('prefers window.desktop and validates its results against the contract', async () => {
    const desktop: DesktopPreload = {
      invoke: vi.fn(async () => ({ ok: true, data: { machineHashCode: hash, machineName: 'PC-1' } })),
      on: vi.fn(() => () => undefined),
    };
    const bridge = selectBridge({ desktop, storedAgentConfig: JSON.stringify({ url: 'ws://127.0.0.1:7777', token: 't' }) });
    expect(bridge.kind).toBe('desktop');
    expect(await bridge.invoke('GetMachineHashCode', {})).toEqual({ ok: true, data: { machineHashCode: hash, machineName: 'PC-1' } });
    expect(desktop.invoke).toHaveBeenCalledWith('GetMachineHashCode', {});
  });

  it('turns a result that breaks the contract into a FAILED envelope', async () => {
    const desktop: DesktopPreload = { invoke: async () => ({ ok: true, data: { machineHashCode: 'nope' } }), on: () => () => undefined };
    const result = await selectBridge({ desktop, storedAgentConfig: null }).invoke('GetMachineHashCode', {});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('FAILED');
  });

  it('uses the loopback agent when configured, speaking the envelope protocol', async () => {
    const { sockets, environment } = agentEnvironment({ url: 'ws://127.0.0.1:7777', token: 'sécret' });
    const bridge = selectBridge(environment);
    expect(bridge.kind).toBe('agent');

    const pending = bridge.invoke('Minimize', {});
    const socket = sockets[0]!;
    expect(socket.url).toBe('ws://127.0.0.1:7777/?token=s%C3%A9cret');
    expect(socket.sent).toEqual([]);
    socket.open();
    const request = JSON.parse(socket.sent[0]!) as { id: number; command: string };
    expect(request).toMatchObject({ command: 'Minimize', args: {} });
    socket.receive({ kind: 'response', id: request.id, envelope: { ok: true, data: { minimized: true } } });
    expect(await pending).toEqual({ ok: true, data: { minimized: true } });
  });

  it('delivers valid agent events and drops malformed ones', () => {
    const { sockets, environment } = agentEnvironment({ url: 'ws://localhost:7777', token: 't' });
    const bridge = selectBridge(environment);
    const seen: string[] = [];
    const stop = bridge.on('AppStatus', (status) => seen.push(status.hostVersion));
    const socket = sockets[0]!;
    socket.open();
    const status = { hostVersion: '1.2.3', host: 'agent', machineName: 'PC', uptimeSeconds: 5, runningRobots: 0, deviceLinked: false, at: '2025-01-01T00:00:00Z' };
    socket.receive({ kind: 'event', event: 'AppStatus', payload: status });
    socket.receive({ kind: 'event', event: 'AppStatus', payload: { hostVersion: 3 } });
    stop();
    socket.receive({ kind: 'event', event: 'AppStatus', payload: status });
    expect(seen).toEqual(['1.2.3']);
  });

  it('answers pending requests with UNAVAILABLE when the agent socket closes', async () => {
    const { sockets, environment } = agentEnvironment({ url: 'ws://[::1]:7777', token: 't' });
    const pending = selectBridge(environment).invoke('Maximize', {});
    sockets[0]!.close();
    const result = await pending;
    expect(!result.ok && result.error.code).toBe('UNAVAILABLE');
  });

  it('falls back to no bridge on the web', async () => {
    const bridge = selectBridge({ storedAgentConfig: null });
    expect(bridge.kind).toBe('none');
    expect(bridge.available).toBe(false);
    const result = await bridge.invoke('CloseWindow', {});
    expect(!result.ok && result.error.code).toBe('UNAVAILABLE');
  });
});

describe('readAgentConfig', () => {
  it('accepts only ws:// on a loopback host', () => {
    for (const url of ['ws://127.0.0.1:1', 'ws://localhost:2', 'ws://[::1]:3']) {
      expect(readAgentConfig(JSON.stringify({ url, token: 't' }))?.url).toBe(url);
    }
    for (const url of ['wss://127.0.0.1:1', 'ws://192.168.1.5:1', 'ws://127.0.0.1.evil.com:1', 'http://localhost:1', 'ws://localhost.evil:1']) {
      expect(readAgentConfig(JSON.stringify({ url, token: 't' }))).toBeNull();
    }
  });

  it('ignores missing tokens and broken JSON', () => {
    expect(readAgentConfig(JSON.stringify({ url: 'ws://127.0.0.1:1', token: '' }))).toBeNull();
    expect(readAgentConfig('{not json')).toBeNull();
    expect(readAgentConfig(null)).toBeNull();
  });
});
