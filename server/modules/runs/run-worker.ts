/**
 * The worker-thread entry that reads a large upload's columns off the request thread.
 * Bundled on its own as dist/server/run-worker.js (scripts/build-server.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ColumnsJob, WorkerMessage } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('run-worker se ejecuta solo como worker thread');
const task = workerData as ColumnsJob;
const { workbookColumns } = await import('../storage/workbook.ts');
port.postMessage({ type: 'columns', columns: workbookColumns(task.name, task.data) } satisfies WorkerMessage);
