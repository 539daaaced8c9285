import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { AgentMessage } from '#shared/bridge/envelope.ts';
import type { AgentSocket } from './agent-socket.ts';
import { startAgentSocket } from './agent-socket.ts';
import { fakeContext } from '../bridge/test-context.ts';

let agent: AgentSocket | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function startAgent() {
  agent = await startAgentSocket(fakeContext(), { port: 0, token: 'secret-token-123', allowedOrigins: ['https://app.autoasesor.es'] });
  return agent;
}

function connect(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function nextMessage(socket: WebSocket): Promise<AgentMessage> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()) as AgentMessage)));
}

describe('agent socket', () => {
  it('answers bridge commands with envelopes that echo the request id', async () => {
    const { url } = await startAgent();
    const socket = await connect(`${url}/?token=secret-token-123`);
    const reply = nextMessage(socket);
    socket.send(JSON.stringify({ id: 7, command: 'GetMachineHashCode', args: {} }));
    await expect(reply).resolves.toEqual({
      kind: 'response',
      id: 7,
      envelope: { ok: true, data: { machineHashCode: 'a'.repeat(64), machineName: 'OFICINA-01' } },
    });
    socket.close();
  });

  it('refuses connections without the right token', async () => {
    const { url } = await startAgent();
    await expect(connect(`${url}/?token=wrong-token-1234`)).rejects.toThrow('HTTP 401');
    await expect(connect(url)).rejects.toThrow('HTTP 401');
  });

  it('refuses pages from other origins but accepts loopback and allowed ones', async () => {
    const { url } = await startAgent();
    const target = `${url}/?token=secret-token-123`;
    await expect(connect(target, 'https://evil.example')).rejects.toThrow('HTTP 401');
    (await connect(target, 'http://127.0.0.1:8081')).close();
    (await connect(target, 'https://app.autoasesor.es')).close();
  });

  it('broadcasts events to connected renderers', async () => {
    const running = await startAgent();
    const socket = await connect(`${running.url}/?token=secret-token-123`);
    const message = nextMessage(socket);
    running.broadcast('AppStatus', { hostVersion: '1.2.3', host: 'agent', machineName: 'PC', uptimeSeconds: 1, runningRobots: 0, deviceLinked: false, at: '2026-11-23T08:00:00.000Z' });
    await expect(message).resolves.toMatchObject({ kind: 'event', event: 'AppStatus', payload: { machineName: 'PC' } });
    socket.close();
  });

  it('answers malformed and schema-invalid messages with an error envelope and keeps the socket open', async () => {
    const { url } = await startAgent();
    const socket = await connect(`${url}/?token=secret-token-123`);
    const notJson = nextMessage(socket);
    socket.send('not json');
    await expect(notJson).resolves.toMatchObject({ kind: 'response', id: -1, envelope: { ok: false, error: { code: 'BAD_ARGS' } } });
    const invalid = nextMessage(socket);
    socket.send(JSON.stringify({ id: 9, command: 42 }));
    await expect(invalid).resolves.toEqual({
      kind: 'response',
      id: 9,
      envelope: { ok: false, error: { code: 'BAD_ARGS', message: 'El mensaje no es una petición válida del puente.' } },
    });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('still delivers answers in flight when a bad message arrives on the same socket', async () => {
    let release = () => {};
    const slowMachine = new Promise<void>((resolve) => (release = resolve));
    const ctx = fakeContext({ machine: async () => (await slowMachine, { machineHashCode: 'b'.repeat(64), machineName: 'LENTO' }) });
    agent = await startAgentSocket(ctx, { port: 0, token: 'secret-token-123', allowedOrigins: [] });
    const socket = await connect(`${agent.url}/?token=secret-token-123`);
    const received: AgentMessage[] = [];
    const both = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        received.push(JSON.parse(data.toString()) as AgentMessage);
        if (received.length === 2) resolve();
      }),
    );
    socket.send(JSON.stringify({ id: 1, command: 'GetMachineHashCode', args: {} }));
    socket.send(JSON.stringify({ id: 2, args: {} }));
    setTimeout(release, 50);
    await both;
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 2, envelope: expect.objectContaining({ ok: false }) }),
        expect.objectContaining({ id: 1, envelope: { ok: true, data: { machineHashCode: 'b'.repeat(64), machineName: 'LENTO' } } }),
      ]),
    );
    socket.close();
  });

  // Before the fix either frame raised an unhandled 'error' on the server socket and ended the process.
  it.each([
    ['a frame over 1 MB', (socket: WebSocket) => socket.send(Buffer.alloc(1_000_001, 'a'))],
    ['a text frame with invalid UTF-8', (socket: WebSocket) => socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false })],
  ])('survives %s: drops that socket, logs it and keeps answering others', async (_name, attack) => {
    const logged: string[] = [];
    agent = await startAgentSocket(fakeContext(), { port: 0, token: 'secret-token-123', allowedOrigins: [], log: (line) => logged.push(line) });
    const target = `${agent.url}/?token=secret-token-123`;
    const hostile = await connect(target);
    const closed = new Promise<number>((resolve) => hostile.once('close', (code) => resolve(code)));
    hostile.on('error', () => undefined);
    attack(hostile);
    await closed;
    await vi.waitFor(() => expect(logged.join('\n')).toMatch(/mensaje no válido \(WS_ERR_/));

    const other = await connect(target);
    const reply = nextMessage(other);
    other.send(JSON.stringify({ id: 3, command: 'GetMachineHashCode', args: {} }));
    await expect(reply).resolves.toMatchObject({ id: 3, envelope: { ok: true } });
    other.close();
  });
});
