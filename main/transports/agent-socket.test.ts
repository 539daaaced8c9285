import { afterEach, describe, expect, it } from 'vitest';
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
    running.broadcast('AppStatus', { hostVersion: '1.2.3', host: 'agent', machineName: 'PC', uptimeSeconds: 1, runningRobots: 0, at: '2026-11-23T08:00:00.000Z' });
    await expect(message).resolves.toMatchObject({ kind: 'event', event: 'AppStatus', payload: { machineName: 'PC' } });
    socket.close();
  });

  it('closes the connection on malformed messages', async () => {
    const { url } = await startAgent();
    const socket = await connect(`${url}/?token=secret-token-123`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json');
    await expect(closed).resolves.toBe(1003);
  });
});
