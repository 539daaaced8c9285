/**
 * The desktop robot runtime (RobotRuntime): each run's robot in a child process of its own
 * (robot-process.ts, child_process.fork), never in the app's main process or the agent. The child's
 * heap is capped (--max-old-space-size), its time is limited, and a stop aborts its signal, waits a
 * grace period and kills it: a crash, a hang or a memory blow-up ends that run only, and the next run
 * starts clean. Outputs the robot streams (context.output) are written by the child into the run's
 * folder under hidden names as they are made; output bytes in the result come back over IPC. At a
 * result both get normalised names unique in that folder (the streamed ones renamed); any other end
 * removes what was streamed. Certificates are asked for by the child and given by the
 * parent (CertificateSource.clientCertificate), only for fingerprints chosen in the run's inputs.
 * With `spare`, one process is forked ahead and prepared (robots loaded, browser launched) so that a
 * run's first line comes in a few hundred milliseconds instead of after a process, tsx and a browser start.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRobotResult, uniqueNames } from '#shared/flows/outputs.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { CertificateSource } from '../bridge/context.ts';
import type { ChildMessage, ParentMessage } from './protocol.ts';
import { discardStaged, stagedNames, type StagedOutput } from './staged-outputs.ts';
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
  /**
   * Keep one robot process started ahead (a spare) with the robots loaded and, with `browser`, the
   * browser launched (no context, no certificate): the next run takes it instead of waiting for a
   * process, tsx and Chromium to start. It serves one run and is replaced once that run has logged its
   * first line (or ended). It dies with this process. Absent: every run starts its own process from nothing.
   */
  spare?: { browser: boolean };
}

/** The runtime as its host holds it: the RobotRuntime contract plus the spare's handles. */
export interface RobotRuntimeHost extends RobotRuntime {
  /** Resolves once the spare is prepared, with its pid; null when there is none (spares off, or it died). */
  warm(): Promise<number | null>;
  /** Ends the spare (tests, benches); running robots are not touched, and no new spare is started. */
  close(): void;
}

export const OUT_OF_MEMORY_MESSAGE = 'El robot se ha quedado sin memoria';
export const NOT_CHOSEN_CERTIFICATE_MESSAGE = 'El robot solo puede usar el certificado elegido para esta ejecución';
const DEFAULT_STOP_GRACE_MS = 5_000;
const DEFAULT_MEMORY_MB = 1_024;
/** What is kept of the child's stderr to explain a crash (V8 prints its out-of-memory report there). */
const STDERR_TAIL_BYTES = 16 * 1024;

type Settings = RobotRuntimeOptions & { stopGraceMs: number; memoryMb: number };

export function createRobotRuntime(options: RobotRuntimeOptions): RobotRuntimeHost {
  const settings: Settings = { ...options, stopGraceMs: options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS, memoryMb: options.memoryMb ?? DEFAULT_MEMORY_MB };
  let running = 0;
  let spare: Spare | null = null;
  let closed = false;

  const keepSpare = () => {
    if (!options.spare || closed || (spare !== null && isUsable(spare.process))) return;
    spare = startSpare(settings, options.spare.browser);
    const started = spare;
    // A spare that dies while it waits is not replaced at once (no restart loop): the next run starts cold and replaces it.
    started.process.child.once('close', () => {
      if (spare === started) spare = null;
    });
  };
  /** The spare, if it can still take a job; it is nobody's spare from here on. */
  const takeSpare = (): RobotProcess | null => {
    const taken = spare;
    spare = null;
    if (taken === null || !isUsable(taken.process)) return null;
    holdOpen(taken.process.child, true);
    return taken.process;
  };

  keepSpare();
  return {
    running: () => running,
    start(job, events) {
      running += 1;
      const ready = takeSpare();
      const robot = runRobot(job, events, settings, ready ?? forkRobotProcess(settings.memoryMb), () => forkRobotProcess(settings.memoryMb), keepSpare);
      // Replaced after its first line, or at its end for a robot that logs nothing.
      void robot.outcome.finally(() => {
        running -= 1;
        keepSpare();
      });
      return robot;
    },
    warm: () => spare?.prepared ?? Promise.resolve(null),
    close() {
      closed = true;
      // Its 'disconnect' handler closes its browser and exits, as when this process dies.
      if (spare?.process.child.connected) spare.process.child.disconnect();
      spare = null;
    },
  };
}

/** A robot process as forked: whether it has said 'ready', and the end of its stderr. */
interface RobotProcess {
  child: ChildProcess;
  ready: boolean;
  stderrTail: string;
  /** Forked ahead of its run: if it dies before its robot started, the run starts again in a fresh process. */
  spare: boolean;
}

interface Spare {
  process: RobotProcess;
  /** Its pid once 'prepared'; null if it died first. */
  prepared: Promise<number | null>;
}

function forkRobotProcess(memoryMb: number): RobotProcess {
  const { entry, execArgv, env } = robotProcessCommand(memoryMb);
  const child = fork(entry, [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const forked: RobotProcess = { child, ready: false, stderrTail: '', spare: false };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (forked.stderrTail = (forked.stderrTail + chunk).slice(-STDERR_TAIL_BYTES)));
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'ready') forked.ready = true;
  });
  // Kept for the child's whole life: an 'error' event without a listener would throw in this process.
  child.on('error', () => undefined);
  return forked;
}

function startSpare(settings: Settings, browser: boolean): Spare {
  const forked = forkRobotProcess(settings.memoryMb);
  forked.spare = true;
  // Waiting for a run must not keep the agent (or a test) alive: it ends with its parent anyway.
  holdOpen(forked.child, false);
  const prepared = new Promise<number | null>((resolve) => {
    forked.child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready' && forked.child.connected) {
        const prepare: ParentMessage = { type: 'prepare', robotsModule: settings.robotsModule?.href ?? null, chromiumPath: settings.chromiumPath ?? null, browser };
        forked.child.send(prepare, () => undefined);
      }
      if (message.type === 'prepared') resolve(forked.child.pid ?? null);
    });
    forked.child.once('close', () => resolve(null));
  });
  return { process: forked, prepared };
}

function isUsable(forked: RobotProcess): boolean {
  const { child } = forked;
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null && child.connected;
}

/** Whether the child (its process, IPC channel and stderr pipe) keeps this process's event loop alive. */
function holdOpen(child: ChildProcess, held: boolean): void {
  const handles: Array<{ ref(): unknown; unref(): unknown } | null | undefined> = [child, child.channel, child.stderr as Socket | null];
  for (const handle of handles) {
    if (held) handle?.ref();
    else handle?.unref();
  }
}

type Ending = { kind: 'timeout' } | { kind: 'stopped'; by: 'user' | 'device' };

/**
 * One run on `first` (a spare or a process forked for it). `forkAgain` starts a fresh process when a
 * spare turns out dead before its robot started; `onFirstLog` is told when the robot's first line
 * arrives (the runtime then prepares the next spare, once this run's start is out of the way).
 */
function runRobot(job: RobotJob, events: RobotEvents, options: Settings, first: RobotProcess, forkAgain: () => RobotProcess, onFirstLog: () => void): RunningRobot {
  const startedAt = performance.now();
  const mark = (milestone: RobotMilestone) => events.timing?.(milestone, Math.round(performance.now() - startedAt));
  const folderReady = mkdir(job.outputFolder, { recursive: true });
  folderReady.catch(() => undefined); // reported when the outputs are written

  let current = first;
  let ending: Ending | null = null;
  /** The robot's own end (a result, written out, or a throw), once its message arrived. */
  let decided: Promise<RobotOutcome> | null = null;
  let robotStarted = false;
  /** Whether the job went to the process: until then no robot runs there that could give up. */
  let jobSent = false;
  let loggedYet = false;
  let killTimer: NodeJS.Timeout | undefined;
  const killAfterGrace = () => {
    clearTimeout(killTimer);
    const { child } = current;
    killTimer = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs);
  };
  const send = (message: ParentMessage) => {
    // A child that is gone cannot be told anything; its 'close' ends the run.
    if (current.child.connected) current.child.send(message, () => undefined);
  };

  const end = (reason: Ending) => {
    const { child } = current;
    if (ending !== null || decided !== null || child.exitCode !== null || child.signalCode !== null) return;
    ending = reason;
    // A process still starting (a loaded machine can take seconds) has no robot to let give up: it
    // goes at once, not after the grace period, and its 'close' ends the run with this reason.
    if (!jobSent) {
      child.kill('SIGKILL');
      return;
    }
    send({ type: 'abort' });
    killAfterGrace();
  };
  // setTimeout fires at once past 2^31-1 ms (24.8 days): longer limits are capped there.
  const limitTimer = setTimeout(() => end({ kind: 'timeout' }), Math.min(job.timeLimitSeconds * 1000, 2 ** 31 - 1));

  let resolveOutcome: (outcome: RobotOutcome) => void = () => undefined;
  const outcome = new Promise<RobotOutcome>((resolve) => (resolveOutcome = resolve));
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
    // The process is gone (or going): what it streamed is not an output unless the run gave a result.
    if (result.kind !== 'result') await discardStaged(job.outputFolder, job.runId).catch(() => undefined);
    mark('finished');
    resolveOutcome(result);
  };

  const sendJob = () => {
    mark('process-ready');
    if (ending !== null) return; // stopped before it started: end() has killed it
    jobSent = true;
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
        outputFolder: job.outputFolder,
      },
    });
  };

  const attach = (forked: RobotProcess) => {
    current = forked;
    const { child } = forked;
    /** A spare found dead before its robot ran: nothing of the job happened, so a fresh process takes it (once). */
    const startAgain = () => {
      if (!forked.spare || robotStarted || ending !== null || decided !== null) return false;
      attach(forkAgain());
      return true;
    };
    child.on('message', (message: ChildMessage) => {
      switch (message.type) {
        case 'ready':
          sendJob();
          break;
        case 'robot-started':
          robotStarted = true;
          mark('robot-started');
          break;
        case 'log':
          if (ending !== null || decided !== null) break;
          if (!loggedYet) {
            mark('first-log');
            onFirstLog();
          }
          loggedYet = true;
          events.log(message.level, message.text);
          break;
        case 'progress':
          if (ending === null && decided === null) events.progress(message.successful, message.total);
          break;
        case 'result':
          if (ending !== null || decided !== null) break;
          decided = closeWithResult(message.result, Array.isArray(message.streamed) ? message.streamed : [], job, folderReady);
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
    child.once('close', (code, signal) => {
      if (startAgain()) return;
      void settle(() => (/heap out of memory|Reached heap limit/i.test(forked.stderrTail) ? OUT_OF_MEMORY_MESSAGE : `El robot terminó sin dar resultado (${signal ?? `código ${code}`})`));
    });
    child.on('error', (error) => {
      // Only a process that never started ends here; otherwise 'close' follows.
      if (child.pid === undefined && !startAgain()) void settle(() => `No se ha podido iniciar el robot: ${error.message}`);
    });
    if (forked.ready) sendJob(); // a spare that was waiting: its 'ready' came before this run
  };
  attach(first);

  return { runId: job.runId, outcome, stop: (by) => end({ kind: 'stopped', by }) };
}

async function closeWithResult(result: unknown, streamed: readonly StagedOutput[], job: Pick<RobotJob, 'outputFolder' | 'runId'>, folderReady: Promise<unknown>): Promise<RobotOutcome> {
  try {
    return await outcomeOfResult(result, streamed, job, folderReady);
  } finally {
    // Outputs left open, or not kept: nothing hidden stays in the run's folder.
    await discardStaged(job.outputFolder, job.runId).catch(() => undefined);
  }
}

async function outcomeOfResult(result: unknown, streamed: readonly StagedOutput[], job: Pick<RobotJob, 'outputFolder' | 'runId'>, folderReady: Promise<unknown>): Promise<RobotOutcome> {
  const folder = job.outputFolder;
  if (!isRobotResult(result)) return { kind: 'failed', message: 'El robot no ha devuelto un resultado válido' };
  let outputFileNames: string[];
  try {
    await folderReady;
    outputFileNames = await writeOutputs(folder, result.outputs, await ownStaged(job, streamed));
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

/** The child's list of streamed outputs, kept only for files this run staged in its own folder. */
async function ownStaged(job: Pick<RobotJob, 'outputFolder' | 'runId'>, streamed: readonly StagedOutput[]): Promise<StagedOutput[]> {
  const staged = new Set(await stagedNames(job.outputFolder, job.runId));
  return streamed.filter((file) => typeof file?.name === 'string' && typeof file.path === 'string' && join(job.outputFolder, basename(file.path)) === file.path && staged.has(basename(file.path)));
}

/**
 * Gives each output its normalised name, unique among the files already in the folder (by case too,
 * except on Linux, whose folders tell 'A.pdf' from 'a.pdf'): the streamed ones first (renamed from
 * their hidden names), then those given as bytes (written, never over an existing file).
 */
export async function writeOutputs(folder: string, files: readonly RobotFile[], streamed: readonly StagedOutput[] = []): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const taken = (await readdir(folder)).filter((name) => !streamed.some((file) => basename(file.path) === name || `${basename(file.path)}.part` === name));
  const names = uniqueNames([...streamed, ...files], { taken, ignoreCase: process.platform !== 'linux' });
  for (const [index, file] of streamed.entries()) await rename(file.path, join(folder, names[index] as string));
  for (const [index, file] of files.entries()) await writeFile(join(folder, names[streamed.length + index] as string), file.data, { flag: 'wx' });
  return names;
}

/**
 * How to start robot-process: packaged, this module is inside dist/desktop/main.js and the robot's entry
 * is the robot-process.js built beside it (scripts/build-desktop.ts), run as plain JavaScript; from
 * source (tsx, vitest), robot-process.ts with tsx's loader (inherited when the parent runs under tsx,
 * added when not). The parent's debugger and heap flags are not inherited; the robot gets its own heap
 * cap. Under Electron, fork runs the Electron binary, which must act as plain Node. `from` is where
 * this code runs (its import.meta.url; tests pass the built main.js).
 */
export function robotProcessCommand(memoryMb: number, from = import.meta.url): { entry: string; execArgv: string[]; env: NodeJS.ProcessEnv } {
  const fromSource = from.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './robot-process.ts' : './robot-process.js', from));
  const inherited = process.execArgv.filter((arg) => !/^--(max-old-space-size|inspect|debug)/.test(arg));
  const loader = fromSource && !inherited.some((arg) => arg.includes('tsx')) ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const env = process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
  return { entry, execArgv: [...inherited, ...loader, `--max-old-space-size=${memoryMb}`], env };
}
