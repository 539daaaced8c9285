/**
 * The agent as a process (node --import tsx main/agent.ts), linked to an in-test device API: it takes
 * the run queued for its machine, runs it in a robot process, closes it on the server, pushes the
 * RobotRun events to its bridge socket, and exits cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AgentMessage } from '#shared/bridge/envelope.ts';
import { keyFileSecretBox } from './certificates/secret-box.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from './device/testing/fake-device-api.ts';
import { fileTokenStore } from './device/token-store.ts';

let api: FakeDeviceApi;
let dataFolder: string;
let agent: ChildProcess | null = null;
beforeEach(async () => {
  api = await startFakeDeviceApi();
  dataFolder = await mkdtemp(join(tmpdir(), 'agent-process-'));
});
afterEach(async () => {
  agent?.kill('SIGKILL');
  agent = null;
  await api.close();
  await rm(dataFolder, { recursive: true, force: true });
});

function startAgent(): Promise<{ url: string; token: string; exited: Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/agent.ts'], {
    env: { ...process.env, AGENT_PORT: '0', AGENT_TOKEN: '', AUTOASESOR_AGENT_DATA: dataFolder, AUTOASESOR_NSS_DB: `sql:${join(dataFolder, 'sin-nss')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agent = child;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the agent did not start:\n${stderr}`)), 15_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const bridge = (JSON.parse(line) as { agentBridge?: { url: string; token: string } }).agentBridge;
      if (!bridge) return;
      clearTimeout(timer);
      resolve({ ...bridge, exited, stderr: () => stderr });
    });
  });
}

describe('the agent process', () => {
  it('takes the run queued for its machine, closes it on the server, tells the window, and stops on SIGTERM', async () => {
    await fileTokenStore(join(dataFolder, 'device.json'), keyFileSecretBox(join(dataFolder, 'secret.key'))).write({
      serverUrl: api.url,
      deviceToken: api.token,
      machine: api.machine,
    });
    const { url, token, exited, stderr } = await startAgent();
    const socket = new WebSocket(`${url}/?token=${token}`);
    const messages: AgentMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as AgentMessage));
    await new Promise((resolve) => socket.once('open', resolve));
    const events = (name: string) => messages.flatMap((message) => (message.kind === 'event' && message.event === name ? [message.payload] : []));

    // A flow this installation does not have: its robot process starts, fails at once, and the run is closed with why.
    const run = api.queue({ flowId: 'robot-inexistente' });
    for (let waited = 0; !api.finishes.get(run.runId) && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.finishes.get(run.runId), stderr()).toEqual([{ kind: 'failed', message: 'El robot robot-inexistente no está instalado en este equipo' }]);
    for (let waited = 0; events('RobotRun').length === 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events('RobotRun')).toContainEqual({ type: 'finished', runId: run.runId, outcome: 'failed', outputFolder: null, outputFileNames: [] });
    // AppStatus ticks every second: one sent while the robot still ran says 1, so wait for the next.
    const lastStatus = () => events('AppStatus').at(-1) as { runningRobots?: number } | undefined;
    for (let waited = 0; lastStatus()?.runningRobots !== 0 && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lastStatus()).toMatchObject({ host: 'agent', deviceLinked: true, runningRobots: 0 });
    expect(stderr()).toContain(`Conectado a ${api.url} como «OFICINA-01»`);

    const stoppedAt = Date.now();
    agent?.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    socket.close();
  });
});
