import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { UploadColumns } from '#shared/api/flows.ts';
import type { ColumnsJob, ParentMessage, WorkerJob, WorkerMessage } from './worker-protocol.ts';

/** How one run's worker ended. */
export type WorkerOutcome =
  | { kind: 'result'; result: RobotResult }
  /** The robot threw, or could not be loaded. */
  | { kind: 'failed'; message: string }
  /** The thread died: an uncaught error, out of memory, an exit without a result. */
  | { kind: 'crashed'; message: string }
  | { kind: 'timeout' }
  | { kind: 'stopped' };

export interface WorkerLimits {
  timeLimitMs: number;
  /** V8 old-generation heap of the worker: a greedy robot dies alone instead of the server. */
  memoryMb: number;
  /** After an abort, how long the robot may take to return before its thread is terminated. */
  stopGraceMs: number;
}

export interface WorkerListener {
  log(level: RobotLogLevel, text: string): void;
  progress(successful: number, total: number): void;
}

export interface RunningWorker {
  outcome: Promise<WorkerOutcome>;
  /** The user's stop: the robot's signal aborts, and its thread ends after the grace period. */
  stop(): void;
}

export const OUT_OF_MEMORY_MESSAGE = 'El robot se ha quedado sin memoria';

/**
 * The worker entry: the bundled dist/server/run-worker.js beside the compiled server, or, when the
 * server runs from source (tsx, vitest), run-worker.ts through tsx's loader. A worker's --import
 * flag does not apply to its own entry on Node 20, so a small bootstrap registers tsx first.
 */
function newWorker(job: WorkerJob | ColumnsJob, transferList: ArrayBuffer[], memoryMb: number): Worker {
  const options = { workerData: job, transferList, resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: false, stderr: false };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./run-worker.js', import.meta.url), options);
  const entry = new URL('./run-worker.ts', import.meta.url).href;
  // tsx's ESM build of its API (its CommonJS build resolves its own files wrongly from an eval'd worker).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { ...options, eval: true });
}

/**
 * Runs one job in a thread of its own, with its time and memory limits. The outcome promise always
 * settles, whatever the robot does, and the thread is gone by then (or being terminated).
 */
export function startRunWorker(job: WorkerJob, transferList: ArrayBuffer[], limits: WorkerLimits, listener: WorkerListener): RunningWorker {
  const worker = newWorker(job, transferList, limits.memoryMb);
  let ending: 'timeout' | 'stopped' | null = null;
  let settle: (outcome: WorkerOutcome) => void = () => undefined;
  let graceTimer: NodeJS.Timeout | undefined;

  const outcome = new Promise<WorkerOutcome>((resolve) => {
    let settled = false;
    settle = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(limitTimer);
      clearTimeout(graceTimer);
      resolve(ending === null ? value : { kind: ending });
      void worker.terminate();
    };
  });

  const end = (reason: 'timeout' | 'stopped') => {
    if (ending !== null) return;
    ending = reason;
    worker.postMessage({ type: 'abort' } satisfies ParentMessage);
    graceTimer = setTimeout(() => settle({ kind: reason }), limits.stopGraceMs);
  };
  const limitTimer = setTimeout(() => end('timeout'), limits.timeLimitMs);

  worker.on('message', (message: WorkerMessage) => {
    switch (message.type) {
      case 'log':
        if (ending === null) listener.log(message.level, message.text);
        break;
      case 'progress':
        if (ending === null) listener.progress(message.successful, message.total);
        break;
      case 'result':
        settle({ kind: 'result', result: message.result });
        break;
      case 'failed':
        settle({ kind: 'failed', message: message.message });
        break;
      case 'columns':
        break;
    }
  });
  worker.on('error', (error: Error & { code?: string }) => {
    settle({ kind: 'crashed', message: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? OUT_OF_MEMORY_MESSAGE : error.message });
  });
  worker.on('exit', (code) => settle({ kind: 'crashed', message: `El robot terminó sin dar resultado (código ${code})` }));

  return { outcome, stop: () => end('stopped') };
}

/**
 * A large upload's first-sheet columns read in a worker thread: parsing a workbook of tens of MB takes
 * seconds of CPU that would otherwise stop every other request. Null when it cannot be read in time
 * or within its memory.
 */
export function readColumnsInWorker(name: string, data: Uint8Array, limits: { timeLimitMs: number; memoryMb: number }): Promise<UploadColumns | null> {
  return new Promise((resolve) => {
    // The bytes are moved to the worker when they are a buffer of their own (the caller is done with them).
    const whole = data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    const worker = newWorker({ kind: 'columns', name, data }, whole ? [data.buffer as ArrayBuffer] : [], limits.memoryMb);
    const settle = (columns: UploadColumns | null) => {
      clearTimeout(timer);
      resolve(columns);
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(null), limits.timeLimitMs);
    worker.on('message', (message: WorkerMessage) => settle(message.type === 'columns' ? message.columns : null));
    worker.on('error', () => settle(null));
    worker.on('exit', () => settle(null));
  });
}
