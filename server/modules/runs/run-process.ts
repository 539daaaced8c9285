/**
 * The child process of one server run (forked by run-child.ts with a heap limit): loads the flow's
 * robot, reads its uploads from storage, runs it, writes the outputs it streams (context.output) into
 * the job's output folder, and posts its log lines, progress and result back. It touches no database. A crash, a hang or a memory blow-up here ends this process only — a worker
 * thread's heap limit is best effort, and a robot that blew it could abort the whole server
 * (nodejs/node#47224). When the server goes away, the IPC channel closes and this process exits.
 * Bundled on its own as dist/server/run-process.js (scripts/build-server.ts).
 */
import { parentChannel } from '../../child-channel.ts';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { BuiltInFlow } from '../flows/catalogue.ts';
import { OutputStaging } from '../storage/staged-outputs.ts';
import type { ChildMessage, ParentMessage, RunProcessJob } from './run-protocol.ts';

const post = parentChannel<ChildMessage>('run-process');

const abort = new AbortController();
let started = false;

process.on('message', (message: ParentMessage) => {
  if (message.type === 'abort') abort.abort();
  if (message.type === 'start' && !started) {
    started = true;
    void run(message.job);
  }
});

const crash = (error: unknown) => {
  void post({ type: 'crashed', message: error instanceof Error ? error.message : String(error) }).then(() => process.exit(1));
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

async function loadFlows(job: RunProcessJob): Promise<readonly BuiltInFlow[]> {
  if (job.flowsModule !== null) return ((await import(job.flowsModule)) as { builtInFlows: readonly BuiltInFlow[] }).builtInFlows;
  return (await import('../../../resources/flows/index.ts')).builtInFlows;
}

/** Chunks of 256 KiB: a few system calls per megabyte, and still little held at a time. */
const CHUNK_BYTES = 256 * 1024;

/**
 * A stored upload as the robot sees it: `stream` reads it from disk chunk by chunk, and `data` is read
 * whole only when a robot first asks for it, so a robot that streams (FIE a incidencias A3 on a
 * 300 MB FIE) never holds the file.
 */
async function storedFile(name: string, path: string): Promise<RobotFile> {
  const { size } = await stat(path);
  let data: Uint8Array | null = null;
  return {
    name,
    size,
    get data(): Uint8Array {
      if (data === null) {
        // A plain Uint8Array view of the Buffer (as before, robots get no Buffer), without copying it.
        const buffer = readFileSync(path);
        data = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      }
      return data;
    },
    stream: () => createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>,
  };
}

async function readFiles(job: RunProcessJob): Promise<Record<string, RobotFile[]>> {
  const files: Record<string, RobotFile[]> = {};
  for (const [key, uploads] of Object.entries(job.files)) {
    files[key] = await Promise.all(uploads.map(({ name, path }) => storedFile(name, path)));
  }
  return files;
}

async function run(job: RunProcessJob): Promise<void> {
  try {
    const flow = (await loadFlows(job)).find((candidate) => (candidate.definition as { id?: unknown }).id === job.flowId);
    if (!flow) throw new Error(`El robot ${job.flowId} no está instalado en este servidor`);
    // The service answers 409 for desktop flows before queueing; this guards the process all the same.
    if (!flow.loadRobot) throw new Error(`El robot ${job.flowId} se ejecuta en un dispositivo, no en el servidor`);
    const robot = await flow.loadRobot();
    const staging = new OutputStaging(job.outputFolder ?? '');
    const result = await robot.run({
      inputs: job.inputs,
      files: await readFiles(job),
      log: (level, text) => void post({ type: 'log', level, text: String(text) }),
      progress: (successful, total) => void post({ type: 'progress', successful, total }),
      signal: abort.signal,
      startedAt: new Date(job.startedAt),
      output: (name) => {
        if (job.outputFolder === undefined) throw new Error('Esta ejecución no tiene dónde escribir sus resultados');
        return staging.open(name);
      },
    });
    await post({ type: 'result', result, streamed: staging.closed() });
  } catch (error) {
    await post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
  process.exit(0);
}

void post({ type: 'ready' });
