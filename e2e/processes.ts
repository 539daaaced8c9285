import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';

/** Asks the OS for a port that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns a process and keeps its output; with logFile it is also written there, for tests to read. */
export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv, logFile?: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const log = logFile ? createWriteStream(logFile) : undefined;
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    log?.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => log?.end());
  return { child, output: () => output };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, log: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}. Output so far:\n${log()}`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

export interface AgentBridge {
  url: string;
  token: string;
}

/** The loopback bridge an agent started with AGENT_PORT=0 prints as `{"agentBridge":{url,token}}` once it serves. */
export function agentBridgeOf(agent: { output: () => string }, what = 'the agent'): Promise<AgentBridge> {
  return waitFor(
    what,
    async () => {
      const line = agent.output().split('\n').find((text) => text.startsWith('{"agentBridge"'));
      return line ? (JSON.parse(line) as { agentBridge: AgentBridge }).agentBridge : undefined;
    },
    30_000,
    agent.output,
  );
}

/**
 * The compiled server (`npm start`'s bundle) on a free loopback port with its data in `dataDir`, once
 * it answers /api/health. `env` adds to the test settings (e.g. RUN_LEASE_MS); a server that never
 * answers is stopped before the error is thrown.
 */
export async function startCompiledServer(entry: string, options: { dataDir: string; env?: NodeJS.ProcessEnv; logFile?: string }): Promise<{ child: ChildProcess; output: () => string; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startProcess('node', ['--enable-source-maps', entry], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    PUBLIC_URL: baseUrl,
    NODE_ENV: 'test',
    SMTP_URL: '',
    ...options.env,
  }, options.logFile);
  try {
    await waitFor('the server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 60_000, server.output);
  } catch (error) {
    await stop(server.child);
    throw error;
  }
  return { ...server, baseUrl };
}
