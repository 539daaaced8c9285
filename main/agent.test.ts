/**
 * The agent as a process (node --import tsx main/agent.ts), linked to an in-test device API: it takes
 * the run queued for its machine, runs it in a robot process, closes it on the server, pushes the
 * RobotRun events to its bridge socket, and exits cleanly on SIGTERM. Its autopilot answers on the
 * same socket, loops without any panel, and pushes its changes as Autopilot events.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import type { AgentMessage, BridgeEnvelope } from '#shared/bridge/envelope.ts';
import { autopilotRetryFromEnv } from './agent.ts';
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

function spawnAgent(extraEnv: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/agent.ts'], {
    env: { ...process.env, AGENT_PORT: '0', AGENT_TOKEN: '', AUTOASESOR_AGENT_DATA: dataFolder, AUTOASESOR_NSS_DB: `sql:${join(dataFolder, 'sin-nss')}`, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agent = child;
  return child;
}

function startAgent(extraEnv: Record<string, string> = {}): Promise<{ url: string; token: string; exited: Promise<number | null>; stderr: () => string }> {
  const child = spawnAgent(extraEnv);
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

/** The agent's bridge socket: requests by id, and every event it pushed so far. */
async function connect(url: string, token: string) {
  const socket = new WebSocket(`${url}/?token=${token}`);
  const messages: AgentMessage[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as AgentMessage));
  await new Promise((resolve) => socket.once('open', resolve));
  let nextId = 1;
  return {
    socket,
    events: (name: string) => messages.flatMap((message) => (message.kind === 'event' && message.event === name ? [message.payload] : [])),
    request: async (command: string, args: unknown = {}): Promise<BridgeEnvelope<unknown>> => {
      const id = nextId++;
      socket.send(JSON.stringify({ id, command, args }));
      const answer = () => messages.find((message) => message.kind === 'response' && message.id === id);
      for (let waited = 0; !answer() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const response = answer();
      if (response?.kind !== 'response') throw new Error(`no answer to ${command}`);
      return response.envelope;
    },
  };
}

describe('AUTOPILOT_RETRY_MS', () => {
  it('is optional, and a whole number of milliseconds when set', () => {
    expect(autopilotRetryFromEnv({})).toBeUndefined();
    expect(autopilotRetryFromEnv({ AUTOPILOT_RETRY_MS: '' })).toBeUndefined();
    expect(autopilotRetryFromEnv({ AUTOPILOT_RETRY_MS: '5000' })).toBe(5000);
    expect(autopilotRetryFromEnv({ AUTOPILOT_RETRY_MS: ' 250 ' })).toBe(250);
  });

  it('refuses anything else in Spanish, naming the variable', () => {
    for (const value of ['cinco', '-1', '0', '1.5', '1e3', '0x10', '99999999999999999999']) {
      expect(() => autopilotRetryFromEnv({ AUTOPILOT_RETRY_MS: value }), value).toThrow(/^AUTOPILOT_RETRY_MS debe ser un número entero de milisegundos/);
    }
  });

  it('stops the agent before it serves anything when it is wrong', async () => {
    const child = spawnAgent({ AUTOPILOT_RETRY_MS: 'pronto' });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('AUTOPILOT_RETRY_MS debe ser un número entero de milisegundos mayor que 0 (por ejemplo 5000), no «pronto».');
    expect(stdout).not.toContain('agentBridge');
  });
});

describe('the agent process', () => {
  it('takes the run queued for its machine, closes it on the server, tells the window, and stops on SIGTERM', async () => {
    await fileTokenStore(join(dataFolder, 'device.json'), keyFileSecretBox(join(dataFolder, 'secret.key'))).write({
      serverUrl: api.url,
      deviceToken: api.token,
      machine: api.machine,
    });
    const { url, token, exited, stderr } = await startAgent();
    const { socket, events } = await connect(url, token);

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

describe("the agent's autopilot", () => {
  it('loops without any panel, answers on the socket and pushes its changes as Autopilot events', async () => {
    await fileTokenStore(join(dataFolder, 'device.json'), keyFileSecretBox(join(dataFolder, 'secret.key'))).write({
      serverUrl: api.url,
      deviceToken: api.token,
      machine: api.machine,
    });
    const { url, token, exited, stderr } = await startAgent({ AUTOPILOT_RETRY_MS: '200' });
    const { socket, events, request } = await connect(url, token);

    const first = await request('GetAutopilot');
    expect(first, stderr()).toMatchObject({ ok: true, data: { looping: true, linked: true } });
    // The panel closing is the desktop app's business: the agent keeps looping.
    await expect(request('SetAutopilotPanelOpen', { open: false })).resolves.toMatchObject({ ok: true, data: { looping: true } });
    await expect(request('SetAutopilotSwitch', { app: 'nominas', enabled: true })).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });

    const switched = await request('SetAutopilotSwitch', { app: 'all', enabled: false });
    expect(switched).toMatchObject({ ok: true, data: { enabled: false } });
    const pushedOff = () => events('Autopilot').some((snapshot) => (snapshot as AutopilotSnapshot).enabled === false);
    for (let waited = 0; !pushedOff() && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pushedOff()).toBe(true);

    agent?.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
    socket.close();
  });

  it('goes on without it when its task cache cannot open, and says why', async () => {
    // A folder where the cache file should be: SQLite cannot open it.
    await mkdir(join(dataFolder, 'autopilot.sqlite'));
    const { url, token, exited, stderr } = await startAgent();
    const { socket, request } = await connect(url, token);
    // stderr and stdout are separate pipes: the warning may arrive after the bridge line.
    for (let waited = 0; !stderr().includes('piloto automático') && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr()).toContain('El piloto automático no ha podido arrancar (');
    expect(stderr()).toContain('este equipo no lanzará sus robots programados hasta que se resuelva.');
    await expect(request('GetAutopilot')).resolves.toEqual({ ok: false, error: { code: 'FAILED', message: 'No se ha podido completar GetAutopilot.' } });
    await expect(request('GetDeviceStatus')).resolves.toMatchObject({ ok: true });

    agent?.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
    socket.close();
  });
});
