/**
 * HTTP load figures with autocannon: requests per second and latency percentiles of one URL under a
 * fixed number of connections. The target runs in its own process, so the load generator and the
 * server do not share an event loop (they do share this machine's cores).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { freePort, stop, waitFor } from '../../e2e/processes.ts';
import { percentile } from './stats.ts';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, and connection errors or timeouts: any of these makes the other figures meaningless. */
  failures: number;
  /**
   * CPU time the server process spent per request (user + system), when its pid was given. On a shared
   * machine this moves far less than req/s and latency, which also measure everyone else's load.
   */
  cpuMicrosPerRequest: number | null;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  /** The server's process, to read its CPU time (Linux /proc). */
  serverPid?: number;
}

/** A process's CPU time so far in µs (user + system), or null where /proc is not there. */
export function cpuMicrosOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** USER_HZ: Linux reports process times in 1/100 s on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

function cpuPerRequest(pid: number | undefined, before: number | null, requests: number): number | null {
  if (pid === undefined || before === null || requests === 0) return null;
  const after = cpuMicrosOf(pid);
  return after === null ? null : (after - before) / requests;
}

export async function measureLoad(url: string, { connections = 50, durationSeconds = 10, headers = {}, serverPid }: LoadOptions = {}): Promise<LoadFigures> {
  const cpuBefore = serverPid === undefined ? null : cpuMicrosOf(serverPid);
  const result = await autocannon({ url, connections, duration: durationSeconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMicrosPerRequest: cpuPerRequest(serverPid, cpuBefore, result.requests.total),
  };
}

/**
 * One client on one kept-alive connection asking again as soon as it is answered: the time a request
 * takes with nothing queued before it, to the microsecond (autocannon's histogram counts whole ms).
 */
export async function measureLatencyAlone(url: string, { durationSeconds = 10, headers = {}, serverPid }: Omit<LoadOptions, 'connections'> = {}): Promise<LoadFigures> {
  const cpuBefore = serverPid === undefined ? null : cpuMicrosOf(serverPid);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      get(url, { agent, headers }, (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      }).once('error', reject);
    });
  const timings: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  try {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const status = await once().catch(() => 0);
      timings.push(performance.now() - sent);
      if (status < 200 || status >= 300) failures += 1;
    }
  } finally {
    agent.destroy();
  }
  return {
    requestsPerSecond: timings.length / ((performance.now() - started) / 1000),
    p50Ms: percentile(timings, 50) ?? Number.NaN,
    p99Ms: percentile(timings, 99) ?? Number.NaN,
    failures,
    cpuMicrosPerRequest: cpuPerRequest(serverPid, cpuBefore, timings.length),
  };
}

/** "12,345 req/s  p50 1.2 ms  p99 4.5 ms" (with the failures, if any). */
export function formatLoad(figures: LoadFigures): string {
  const failures = figures.failures > 0 ? `  (${figures.failures} failed!)` : '';
  const cpu = figures.cpuMicrosPerRequest === null ? '' : `  ${Math.round(figures.cpuMicrosPerRequest)} µs CPU/req`;
  return `${Math.round(figures.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${figures.p50Ms.toFixed(1)} ms  p99 ${figures.p99Ms.toFixed(1)} ms${cpu}${failures}`;
}

/**
 * A bare Fastify server answering {hello:'world'} in a child process: the ceiling this machine reaches
 * right now, measured in the same run as the figures it is compared with.
 */
export async function startHelloWorld(): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const code = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  // cwd is the repo, so 'fastify' resolves from its node_modules.
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/`;
  await waitFor('the hello-world server', async () => ((await fetch(url)).ok ? true : undefined), 20_000, () => '');
  return { url, pid: child.pid, stop: () => stop(child) };
}

/** Signs in through the API and returns the Cookie header a signed-in browser would send. */
export async function signInCookie(baseUrl: string, credentials = { email: 'demo@autoasesor.es', password: 'Demo1234!' }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}
