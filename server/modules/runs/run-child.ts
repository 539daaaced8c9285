import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { childCommand, robotHeapFlags } from '../../child-command.ts';
import type { RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import { removeStaging, type StagedOutput } from '../storage/staged-outputs.ts';
import type { ChildMessage, ParentMessage, RunProcessJob } from './run-protocol.ts';

/** A run's streamed outputs: the closed files, and the folder they wait in (removed once they are stored). */
export interface StagedOutputs {
  folder: string;
  files: StagedOutput[];
}

/** How one run's process ended. */
export type RunOutcome =
  /** `staged`: what the robot wrote through context.output (a machine's result has none). */
  | { kind: 'result'; result: RobotResult; staged?: StagedOutputs }
  /** The robot threw, or could not be loaded. */
  | { kind: 'failed'; message: string }
  /** The process died: an uncaught error, out of memory, an exit without a result. */
  | { kind: 'crashed'; message: string }
  | { kind: 'timeout' }
  | { kind: 'stopped' };

export interface RunLimits {
  timeLimitMs: number;
  /** V8 old-generation heap of the run's process: a greedy robot dies alone instead of the server. */
  memoryMb: number;
  /** After an abort, how long the robot may take to return before its process is killed. */
  stopGraceMs: number;
}

export interface RunListener {
  log(level: RobotLogLevel, text: string): void;
  progress(successful: number, total: number): void;
}

export interface RunningRobot {
  outcome: Promise<RunOutcome>;
  /** The user's stop: the robot's signal aborts, and its process is killed after the grace period. */
  stop(): void;
}

export const OUT_OF_MEMORY_MESSAGE = 'El robot se ha quedado sin memoria';

/** What is kept of a run process's stderr: enough to tell V8's out-of-memory report. */
const STDERR_TAIL_CHARS = 4_096;
/** How long a killed run process may take to go before its output folder is removed all the same. */
const EXIT_WAIT_MS = 5_000;

/** How the run process starts (dist/server/run-process.js compiled; see childCommand). */
export function runProcessCommand(memoryMb: number, from = import.meta.url, bundles?: string): { entry: string; execArgv: string[] } {
  return childCommand('run-process', memoryMb, from, bundles, robotHeapFlags(memoryMb));
}

/**
 * Runs one job in a process of its own, with its time and memory limits. The outcome promise always
 * settles, whatever the robot does, and the process is gone by then (or being killed). The outputs the
 * robot streams go to the job's output folder (made here in the system's temporary folder when the job
 * names none): a result hands it on with the closed files (runs/closing.ts stores them and removes it);
 * any other end removes it, with whatever was written, once the process is gone.
 */
export function startRunProcess(job: RunProcessJob, limits: RunLimits, listener: RunListener): RunningRobot {
  const { entry, execArgv } = runProcessCommand(limits.memoryMb);
  const outputFolder = job.outputFolder ?? mkdtempSync(join(tmpdir(), 'autoasesor-salidas-'));
  mkdirSync(outputFolder, { recursive: true });
  const child: ChildProcess = fork(entry, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)));

  let ending: 'timeout' | 'stopped' | null = null;
  let graceTimer: NodeJS.Timeout | undefined;
  let settle: (outcome: RunOutcome) => void = () => undefined;
  /** A result keeps its outputs for the closing; anything else leaves nothing once the process is gone. */
  const withOutputs = async (value: RunOutcome): Promise<RunOutcome> => {
    if (value.kind === 'result') return value;
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS))]);
    await removeStaging(outputFolder).catch(() => undefined);
    return value;
  };
  const outcome = new Promise<RunOutcome>((resolve) => {
    let settled = false;
    settle = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(limitTimer);
      clearTimeout(graceTimer);
      resolve(withOutputs(ending === null ? value : { kind: ending }));
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
  });
  const send = (message: ParentMessage) => {
    if (child.connected) child.send(message, (error) => error && undefined);
  };

  const end = (reason: 'timeout' | 'stopped') => {
    if (ending !== null) return;
    ending = reason;
    send({ type: 'abort' });
    graceTimer = setTimeout(() => settle({ kind: reason }), limits.stopGraceMs);
  };
  const limitTimer = setTimeout(() => end('timeout'), limits.timeLimitMs);

  child.on('message', (message: ChildMessage) => {
    switch (message.type) {
      case 'ready':
        send({ type: 'start', job: { ...job, outputFolder } });
        break;
      case 'log':
        if (ending === null) listener.log(message.level, message.text);
        break;
      case 'progress':
        if (ending === null) listener.progress(message.successful, message.total);
        break;
      case 'result':
        settle({ kind: 'result', result: message.result, staged: { folder: outputFolder, files: stagedWithin(outputFolder, message.streamed) } });
        break;
      case 'failed':
        settle({ kind: 'failed', message: message.message });
        break;
      case 'crashed':
        settle({ kind: 'crashed', message: message.message });
        break;
    }
  });
  // Kept for the child's whole life: an 'error' event without a listener would throw in the server.
  child.on('error', (error) => {
    if (child.pid === undefined) settle({ kind: 'failed', message: `No se ha podido iniciar el robot: ${error.message}` });
  });
  child.once('close', (code, signal) => {
    const outOfMemory = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderrTail);
    settle({ kind: 'crashed', message: outOfMemory ? OUT_OF_MEMORY_MESSAGE : `El robot terminó sin dar resultado (${signal ?? `código ${code}`})` });
  });

  return { outcome, stop: () => end('stopped') };
}

/** The child's list of closed outputs, kept only where it may be: plain entries inside the run's own folder. */
function stagedWithin(folder: string, streamed: unknown): StagedOutput[] {
  if (!Array.isArray(streamed)) return [];
  return streamed.filter(
    (file): file is StagedOutput =>
      typeof file === 'object' && file !== null && typeof (file as StagedOutput).name === 'string' && typeof (file as StagedOutput).size === 'number' &&
      typeof (file as StagedOutput).path === 'string' && resolvePath(dirname((file as StagedOutput).path)) === resolvePath(folder),
  );
}
