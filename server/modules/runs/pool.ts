import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { UploadColumns } from '#shared/api/flows.ts';
import type { ColumnsJob, WorkerMessage } from './worker-protocol.ts';

/**
 * The worker entry: the bundled dist/server/run-worker.js beside the compiled server, or, when the
 * server runs from source (tsx, vitest), run-worker.ts through tsx's loader. A worker's --import
 * flag does not apply to its own entry on Node 20, so a small bootstrap registers tsx first.
 */
function newWorker(job: ColumnsJob, transferList: ArrayBuffer[], memoryMb: number): Worker {
  const options = { workerData: job, transferList, resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stdout: false, stderr: false };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./run-worker.js', import.meta.url), options);
  const entry = new URL('./run-worker.ts', import.meta.url).href;
  // tsx's ESM build of its API (its CommonJS build resolves its own files wrongly from an eval'd worker).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { ...options, eval: true });
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
