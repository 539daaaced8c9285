/**
 * The worker-thread entry of one run: loads the flow's robot, runs it with the inputs and files the
 * parent sent, and posts its log lines, progress and result back (or reads a large upload's columns).
 * It touches neither the database nor the storage folder; a crash or a hang here ends this thread
 * only (the parent terminates it).
 * Bundled on its own as dist/server/run-worker.js (scripts/build-server.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { BuiltInFlow } from '../flows/catalogue.ts';
import type { ColumnsJob, ParentMessage, WorkerJob, WorkerMessage } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('run-worker se ejecuta solo como worker thread');
const task = workerData as WorkerJob | ColumnsJob;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const abort = new AbortController();
port.on('message', (message: ParentMessage) => {
  if (message.type === 'abort') abort.abort();
});

async function loadFlows(job: WorkerJob): Promise<readonly BuiltInFlow[]> {
  if (job.flowsModule !== null) return ((await import(job.flowsModule)) as { builtInFlows: readonly BuiltInFlow[] }).builtInFlows;
  return (await import('../../../resources/flows/index.ts')).builtInFlows;
}

/** Buffers that are the whole of one output (a slice of Node's shared Buffer pool is copied instead). */
function bytesOf(files: readonly RobotFile[]): ArrayBuffer[] {
  return files.flatMap(({ data }) => (data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? [data.buffer] : []));
}

async function runRobot(job: WorkerJob): Promise<void> {
  const flow = (await loadFlows(job)).find((candidate) => (candidate.definition as { id?: unknown }).id === job.flowId);
  if (!flow) throw new Error(`El robot ${job.flowId} no está instalado en este servidor`);
  // The service answers 409 for desktop flows before queueing; this guards the worker all the same.
  if (!flow.loadRobot) throw new Error(`El robot ${job.flowId} se ejecuta en un dispositivo, no en el servidor`);
  const robot = await flow.loadRobot();
  const result = await robot.run({
    inputs: job.inputs,
    files: job.files,
    log: (level, text) => post({ type: 'log', level, text: String(text) }),
    progress: (successful, total) => post({ type: 'progress', successful, total }),
    signal: abort.signal,
    startedAt: new Date(job.startedAt),
  });
  // Outputs are moved, not copied, to the parent: only distinct buffers may be listed.
  post({ type: 'result', result }, [...new Set(bytesOf(result.outputs))]);
}

try {
  if (task.kind === 'columns') {
    const { workbookColumns } = await import('../storage/workbook.ts');
    post({ type: 'columns', columns: workbookColumns(task.name, task.data) });
  } else {
    await runRobot(task);
  }
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
