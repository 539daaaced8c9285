/**
 * The desktop robot runtime (RobotRuntime): each run's robot in a child process of its own
 * (robot-process.ts, child_process.fork), never in the app's main process or the agent. The child's
 * heap is capped (--max-old-space-size), its time is limited, and a stop aborts its signal, waits a
 * grace period and kills it: a crash, a hang or a memory blow-up ends that run only, and the next run
 * starts clean. Output bytes come back over IPC and are written here, into the run's folder, under
 * normalised names unique in that folder. Certificates are asked for by the child and given by the
 * parent (CertificateSource.clientCertificate), only for fingerprints chosen in the run's inputs.
 */
import { fork } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRobotResult, uniqueNames } from '#shared/flows/outputs.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { CertificateSource } from '../bridge/context.ts';
import type { ChildMessage, ParentMessage } from './protocol.ts';
import type { RobotEvents, RobotJob, RobotMilestone, RobotOutcome, RobotRuntime, RunningRobot } from './types.ts';

export interface RobotRuntimeOptions {
  certificates: CertificateSource;
  /** The Chromium robots drive; undefined: CHROMIUM_PATH, else the platform's browser (sdk/browser.ts). */
  chromiumPath?: string;
  /** This installation's settings per flow id, over each flow's settings.json (AUTOASESOR_ROBOT_SETTINGS). */
  settingsOverrides?: Record<string, Record<string, unknown>>;
  /** A module exporting `desktopFlows` (tests); default the app's resources/flows/index.ts. */
  robotsModule?: URL;
  /** After a stop or the time limit, how long the robot may take to end before its process is killed. */
  stopGraceMs?: number;
  /** V8 heap of each robot process (Chromium's own processes are not counted). */
  memoryMb?: number;
}

export const OUT_OF_MEMORY_MESSAGE = 'El robot se ha quedado sin memoria';
export const NOT_CHOSEN_CERTIFICATE_MESSAGE = 'El robot solo puede usar el certificado elegido para esta ejecución';
const DEFAULT_STOP_GRACE_MS = 5_000;
const DEFAULT_MEMORY_MB = 1_024;
/** What is kept of the child's stderr to explain a crash (V8 prints its out-of-memory report there). */
const STDERR_TAIL_BYTES = 16 * 1024;

export function createRobotRuntime(options: RobotRuntimeOptions): RobotRuntime {
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
  let running = 0;

  return {
    running: () => running,
    start(job, events) {
      running += 1;
      const robot = startRobotProcess(job, events, { ...options, stopGraceMs, memoryMb });
      void robot.outcome.finally(() => (running -= 1));
      return robot;
    },
  };
}

type Ending = { kind: 'timeout' } | { kind: 'stopped'; by: 'user' | 'device' };

function startRobotProcess(job: RobotJob, events: RobotEvents, options: RobotRuntimeOptions & { stopGraceMs: number; memoryMb: number }): RunningRobot {
  const startedAt = performance.now();
  const mark = (milestone: RobotMilestone) => events.timing?.(milestone, Math.round(performance.now() - startedAt));
  const folderReady = mkdir(job.outputFolder, { recursive: true });
  folderReady.catch(() => undefined); // reported when the outputs are written

  const { entry, execArgv, env } = robotProcessCommand(options.memoryMb);
  const child = fork(entry, [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES)));

  let ending: Ending | null = null;
  /** The robot's own end (a result, written out, or a throw), once its message arrived. */
  let decided: Promise<RobotOutcome> | null = null;
  let loggedYet = false;
  let killTimer: NodeJS.Timeout | undefined;
  const killAfterGrace = () => {
    clearTimeout(killTimer);
    killTimer = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs);
  };
  const send = (message: ParentMessage) => {
    // A child that is gone cannot be told anything; its 'close' ends the run.
    if (child.connected) child.send(message, () => undefined);
  };

  const end = (reason: Ending) => {
    if (ending !== null || decided !== null || child.exitCode !== null || child.signalCode !== null) return;
    ending = reason;
    send({ type: 'abort' });
    killAfterGrace();
  };
  // setTimeout fires at once past 2^31-1 ms (24.8 days): longer limits are capped there.
  const limitTimer = setTimeout(() => end({ kind: 'timeout' }), Math.min(job.timeLimitSeconds * 1000, 2 ** 31 - 1));

  child.on('message', (message: ChildMessage) => {
    switch (message.type) {
      case 'ready':
        mark('process-ready');
        if (ending !== null) break; // stopped before it started: it is killed after the grace period
        send({
          type: 'start',
          job: {
            runId: job.runId,
            flowId: job.flowId,
            inputs: job.inputs,
        files: job.files ?? {},
            startedAt: job.startedAt,
            robotsModule: options.robotsModule?.href ?? null,
            settingsOverrides: options.settingsOverrides?.[job.flowId] ?? {},
            chromiumPath: options.chromiumPath ?? null,
          },
        });
        break;
      case 'robot-started':
        mark('robot-started');
        break;
      case 'log':
        if (ending !== null || decided !== null) break;
        if (!loggedYet) mark('first-log');
        loggedYet = true;
        events.log(message.level, message.text);
        break;
      case 'progress':
        if (ending === null && decided === null) events.progress(message.successful, message.total);
        break;
      case 'result':
        if (ending !== null || decided !== null) break;
        decided = closeWithResult(message.result, job.outputFolder, folderReady);
        killAfterGrace(); // it exits by itself at once; this is for a child that would not
        break;
      case 'failed':
        if (ending !== null || decided !== null) break;
        decided = Promise.resolve({ kind: 'failed', message: message.message });
        killAfterGrace();
        break;
      case 'certificate-request': {
        const { requestId, fingerprint } = message;
        const chosen = Object.values(job.inputs).includes(fingerprint);
        const certificate = chosen ? options.certificates.clientCertificate(fingerprint) : Promise.reject(new Error(NOT_CHOSEN_CERTIFICATE_MESSAGE));
        certificate.then(
          ({ pfx, passphrase }) => send({ type: 'certificate', requestId, pfx: new Uint8Array(pfx), passphrase }),
          (error: unknown) => send({ type: 'certificate-refused', requestId, message: error instanceof Error ? error.message : String(error) }),
        );
        break;
      }
    }
  });

  const outcome = new Promise<RobotOutcome>((resolve) => {
    let settled = false;
    const settle = async (crash: () => string) => {
      if (settled) return;
      settled = true;
      clearTimeout(limitTimer);
      clearTimeout(killTimer);
      let result: RobotOutcome;
      if (ending !== null) result = ending;
      else if (decided !== null) result = await decided;
      else result = { kind: 'crashed', message: crash() };
      mark('finished');
      resolve(result);
    };
    child.once('close', (code, signal) => {
      void settle(() => (/heap out of memory|Reached heap limit/i.test(stderrTail) ? OUT_OF_MEMORY_MESSAGE : `El robot terminó sin dar resultado (${signal ?? `código ${code}`})`));
    });
    // Kept for the child's whole life: an 'error' event without a listener would throw in this process.
    child.on('error', (error) => {
      // Only a process that never started ends here; otherwise 'close' follows.
      if (child.pid === undefined) void settle(() => `No se ha podido iniciar el robot: ${error.message}`);
    });
  });

  return { runId: job.runId, outcome, stop: (by) => end({ kind: 'stopped', by }) };
}

async function closeWithResult(result: unknown, folder: string, folderReady: Promise<unknown>): Promise<RobotOutcome> {
  if (!isRobotResult(result)) return { kind: 'failed', message: 'El robot no ha devuelto un resultado válido' };
  let outputFileNames: string[];
  try {
    await folderReady;
    outputFileNames = await writeOutputs(folder, result.outputs);
  } catch (error) {
    return { kind: 'failed', message: `No se han podido guardar los resultados en ${folder}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const summary = Object.entries(result.summary ?? {}).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
  return {
    kind: 'result',
    result: result.result,
    usageUnits: result.usageUnits,
    ...(typeof result.message === 'string' ? { message: result.message } : {}),
    ...(summary.length > 0 ? { summary: Object.fromEntries(summary) as Record<string, string | number | boolean> } : {}),
    outputFolder: folder,
    outputFileNames,
  };
}

/**
 * Writes each output under its normalised name, unique among the files already in the folder (by case
 * too, except on Linux, whose folders tell 'A.pdf' from 'a.pdf'); never over an existing file.
 */
export async function writeOutputs(folder: string, files: readonly RobotFile[]): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const names = uniqueNames(files, { taken: await readdir(folder), ignoreCase: process.platform !== 'linux' });
  for (const [index, file] of files.entries()) await writeFile(join(folder, names[index] as string), file.data, { flag: 'wx' });
  return names;
}

/**
 * How to start robot-process: the compiled robot-process.js beside this module, or, from source (tsx,
 * vitest), robot-process.ts with tsx's loader (inherited when the parent runs under tsx, added when
 * not). The parent's debugger and heap flags are not inherited; the robot gets its own heap cap.
 * Under Electron, fork runs the Electron binary, which must act as plain Node.
 */
export function robotProcessCommand(memoryMb: number): { entry: string; execArgv: string[]; env: NodeJS.ProcessEnv } {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './robot-process.ts' : './robot-process.js', import.meta.url));
  const inherited = process.execArgv.filter((arg) => !/^--(max-old-space-size|inspect|debug)/.test(arg));
  const loader = fromSource && !inherited.some((arg) => arg.includes('tsx')) ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const env = process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
  return { entry, execArgv: [...inherited, ...loader, `--max-old-space-size=${memoryMb}`], env };
}
