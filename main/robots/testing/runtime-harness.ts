/**
 * Test-only: the runtime's tests (runtime*.test.ts) start real robot processes with the test robots
 * (robots.ts) and watch what they report and which processes are left.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RobotLogLevel } from '#shared/flows/robot.ts';
import type { CertificateSource } from '../../bridge/context.ts';
import { createRobotRuntime, type RobotRuntimeOptions } from '../runtime.ts';
import type { RobotJob, RobotMilestone } from '../types.ts';

const robotsModule = new URL('./robots.ts', import.meta.url);
let root: string | undefined;
let runs = 0;

/** The runs of the calling test file write under one temporary folder, removed after its tests. */
export function useRunFolders() {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'robot-runtime-'));
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });
}

export const noCertificates: CertificateSource = {
  list: async () => ({ certificates: [], problems: [], folder: null }),
  setFolder: async () => null,
  unlock: async () => 0,
  clientCertificate: async () => {
    throw new Error('El certificado elegido no está en este dispositivo');
  },
};

export function runtime(options: Partial<RobotRuntimeOptions> = {}) {
  return createRobotRuntime({ certificates: noCertificates, robotsModule, stopGraceMs: 1_000, memoryMb: 256, ...options });
}

/** A job of the test robot `flowId`, in a folder of its own (run-1, run-2...). */
export function job(flowId: string, overrides: Partial<RobotJob> = {}): RobotJob {
  if (root === undefined) throw new Error('useRunFolders() first');
  runs += 1;
  return {
    runId: `run-${runs}`,
    flowId,
    inputs: {},
    timeLimitSeconds: 30,
    startedAt: '2026-11-23T08:00:00.000Z',
    outputFolder: join(root, `run-${runs}`),
    ...overrides,
  };
}

/** Starts a run and records what it reports. */
export function watch(robots: ReturnType<typeof runtime>, robotJob: RobotJob) {
  const logs: Array<[RobotLogLevel, string]> = [];
  const progress: Array<[number, number]> = [];
  const milestones: Array<[RobotMilestone, number]> = [];
  const robot = robots.start(robotJob, {
    log: (level, text) => logs.push([level, text]),
    progress: (successful, total) => progress.push([successful, total]),
    timing: (milestone, elapsedMs) => milestones.push([milestone, elapsedMs]),
  });
  const firstLog = new Promise<string>((resolve) => {
    const check = setInterval(() => {
      const line = logs[0];
      if (line) {
        clearInterval(check);
        resolve(line[1]);
      }
    }, 10);
  });
  return { robot, logs, progress, milestones, firstLog };
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid a test robot writes in its first line ('... pid 1234'). */
export const pidIn = (line: string) => Number(/pid (\d+)/.exec(line)?.[1]);

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const chromiumFound = existsSync(chromiumPath);

/** Zombies (exited, waiting for a parent that does not reap them, as a container's init may not) count as gone. */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

export async function goneWithin(pids: number[], withinMs: number): Promise<number[]> {
  const running = () => pids.filter((pid) => isAlive(pid) && !isZombie(pid));
  const deadline = Date.now() + withinMs;
  while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return running();
}

function processTable(): Array<[number, number]> {
  return execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
}

/** The processes `pid` started itself (a robot process: its browser). */
export function childrenOf(pid: number): number[] {
  return processTable()
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child)
    .sort((a, b) => a - b);
}

/** Every process below `pid` (a browser and its helpers). */
export function descendantsOf(pid: number): number[] {
  const rows = processTable();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}
