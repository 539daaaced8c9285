import { setTimeout as delay } from 'node:timers/promises';
import type { DeviceRunOutcome, DeviceRunReport, LeasedRun } from '#shared/api/devices.ts';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import type { RobotHost } from '../bridge/context.ts';
import type { RobotOutcome, RobotRuntime, RunningRobot } from '../robots/types.ts';
import type { DeviceLinkService } from './connection.ts';
import { downloadRunFiles, jobFolderFor, outcomeForServer, type RunFiles } from './run-files.ts';
import { DeviceError, NOT_LINKED_MESSAGE, unreachableMessage } from './errors.ts';
import type { DeviceServerClient } from './server-client.ts';
import type { DeviceLinkRecord } from './token-store.ts';

export const FLOW_MISMATCH_MESSAGE = 'La ejecución pedida es de otro robot: vuelve a lanzarlo desde la aplicación.';

export interface DeviceRunnerOptions {
  link: DeviceLinkService;
  runtime: RobotRuntime;
  /** Every run's folder is made inside this one (OpenFolder opens nothing else). */
  outputRoot: string;
  /** Each log line, progress and end, for the renderer (RobotRun bridge events). */
  emit: (event: RobotRunEvent) => void;
  now?: () => Date;
  /** Faults worth a line on stderr (the agent) or the app's log. */
  log?: (message: string) => void;
  /** How long a failed poll waits; tests record the waits instead of sleeping through them. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  pollWaitSeconds?: number;
  /** A new log line reaches the server within this (the web launcher shows it). */
  lineFlushMs?: number;
  backoff?: { firstMs: number; maxMs: number };
  /** Runs this PC takes from the queue at once; LaunchFlow from this PC's own window is not limited. */
  maxConcurrentRuns?: number;
  /** After a 409 on claim, how long LaunchFlow waits for this PC's own run loop to show the run it leased. */
  claimRaceMs?: number;
}

/** The robots of a linked PC: the queue it polls, the runs it was handed, and their reports to the server. */
export interface DeviceRunner extends RobotHost {
  /** Polls for runs whenever this PC is linked (and stops when it is unlinked or its token refused). */
  start(): Promise<void>;
  /** Leases the run of a launch from this PC and starts its robot; flowId must be that run's flow. */
  launch(executionToken: string, flowId?: string): Promise<{ runId: string; outputFolder: string }>;
  /** Process exit: stops polling, stops every robot (by 'device') and finishes their runs, or gives up after timeoutMs. */
  shutdown(timeoutMs?: number): Promise<void>;
}

interface Execution {
  run: LeasedRun;
  outputFolder: string;
  robotEnded: boolean;
  /** Resolves once the run is finished on the server (or given up). */
  done: Promise<void>;
  stop(by: 'user' | 'device'): void;
}

const MAX_LINES_PER_REPORT = 500;
const MAX_LINE_CHARS = 2000;
/** Lines kept while the server cannot be reached; older ones are dropped (and counted) beyond this. */
const MAX_PENDING_LINES = 5000;
const FINISH_ATTEMPTS = 5;

export function createDeviceRunner(options: DeviceRunnerOptions): DeviceRunner {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((message: string) => console.error(message));
  const sleep = options.sleep ?? sleepUnlessAborted;
  const pollWaitSeconds = options.pollWaitSeconds ?? 25;
  const lineFlushMs = options.lineFlushMs ?? 250;
  const backoff = options.backoff ?? { firstMs: 1000, maxMs: 30_000 };
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 4;
  const claimRaceMs = options.claimRaceMs ?? 3000;
  const { link } = options;

  const executions = new Map<string, Execution>();
  /** Woken whenever a run starts or ends (LaunchFlow waiting on the loop, the loop waiting for room). */
  const changes = new Set<() => void>();
  const changed = () => {
    for (const listener of [...changes]) listener();
  };
  const nextChange = (signal: AbortSignal, ms?: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        changes.delete(done);
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      changes.add(done);
      signal.addEventListener('abort', done, { once: true });
    });

  let polling: AbortController | null = null;
  let closing = false;
  let stopFollowing: (() => void) | null = null;

  const follow = (record: DeviceLinkRecord | null) => {
    polling?.abort();
    polling = null;
    const client = link.client();
    if (!record || !client || closing) return;
    const controller = new AbortController();
    polling = controller;
    void poll(record, client, controller.signal).catch((error: unknown) => log(`Dispositivo: la cola de ejecuciones se ha detenido: ${String(error)}`));
  };

  async function poll(record: DeviceLinkRecord, client: DeviceServerClient, signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      if (liveCount() >= maxConcurrentRuns) {
        await nextChange(signal);
        continue;
      }
      try {
        const run = await client.nextRun(pollWaitSeconds, signal);
        failures = 0;
        link.setProblem(null);
        if (run && !signal.aborted) begin(client, record, run);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof DeviceError && error.reason === 'token-refused') {
          await link.tokenRefused(record);
          return;
        }
        // Network down, server restarting: wait 1 s, 2 s, 4 s... up to 30 s, and say so in the status.
        link.setProblem(error instanceof DeviceError ? error.message : unreachableMessage(record.serverUrl));
        const wait = Math.min(backoff.firstMs * 2 ** failures, backoff.maxMs);
        failures += 1;
        await sleep(wait, signal);
      }
    }
  }

  const liveCount = () => [...executions.values()].filter((execution) => !execution.robotEnded).length;

  function begin(client: DeviceServerClient, record: DeviceLinkRecord, run: LeasedRun): Execution {
    const known = executions.get(run.runId);
    if (known) return known;
    const outputFolder = jobFolderFor(options.outputRoot, run);
    const reporter = createReporter(client, record, run);
    let robot: RunningRobot | null = null;
    /** A stop asked before the robot started (while its files download): it never starts. */
    let stoppedEarly: 'user' | 'device' | null = null;
    const downloading = new AbortController();
    const startRobot = (files: RunFiles): Promise<RobotOutcome> => {
      if (stoppedEarly) return Promise.resolve({ kind: 'stopped', by: stoppedEarly });
      robot = options.runtime.start(
        { runId: run.runId, flowId: run.flowId, inputs: files.inputs, files: files.files, timeLimitSeconds: run.timeLimitSeconds, startedAt: run.startedAt, outputFolder },
        {
          log: (level, text) => {
            reporter.line(level, text);
            options.emit({ type: 'log', runId: run.runId, level, text, at: now().toISOString() });
          },
          progress: (successful, total) => {
            reporter.progress(successful, total);
            options.emit({ type: 'progress', runId: run.runId, successfulIterations: successful, totalIterations: total });
          },
        },
      );
      return robot.outcome;
    };
    const startAfterDownloads = async (): Promise<RobotOutcome> => {
      let files: RunFiles;
      try {
        files = await downloadRunFiles(client, run, downloading.signal, (ms) => sleep(ms, downloading.signal));
      } catch (error) {
        if (stoppedEarly) return { kind: 'stopped', by: stoppedEarly };
        // 409 or 401: the server has let go of this run (or of this PC); the reporter stops here too.
        if (reporter.refused(error)) return { kind: 'stopped', by: 'device' };
        return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
      let started: Promise<RobotOutcome>;
      try {
        started = startRobot(files);
      } catch (error) {
        return { kind: 'crashed', message: `El robot no ha podido arrancar en este equipo: ${error instanceof Error ? error.message : String(error)}` };
      }
      return started;
    };
    const outcome = startAfterDownloads();
    const execution: Execution = {
      run,
      outputFolder,
      robotEnded: false,
      done: Promise.resolve(),
      stop: (by) => {
        if (robot) {
          robot.stop(by);
          return;
        }
        stoppedEarly ??= by;
        downloading.abort();
      },
    };
    reporter.onStop((by) => execution.stop(by));
    execution.done = outcome
      .catch((error: unknown): RobotOutcome => ({ kind: 'crashed', message: error instanceof Error ? error.message : String(error) }))
      .then(async (ended) => {
        execution.robotEnded = true;
        changed();
        const final = await reporter.end(ended);
        options.emit({
          type: 'finished',
          runId: run.runId,
          outcome: ended.kind,
          outputFolder: ended.kind === 'result' ? ended.outputFolder : null,
          outputFileNames: ended.kind === 'result' ? ended.outputFileNames : [],
        });
        if (final) log(final);
      })
      .catch((error: unknown) => log(`Dispositivo: la ejecución ${run.runId} no se ha podido cerrar: ${String(error)}`))
      .finally(() => {
        executions.delete(run.runId);
        changed();
      });
    executions.set(run.runId, execution);
    changed();
    return execution;
  }

  /**
   * Lines and progress go to the server in batches: within lineFlushMs of a new line, and at least
   * every leaseMs/3 (which also renews the lease). One report at a time; a failed one keeps its lines.
   */
  function createReporter(client: DeviceServerClient, record: DeviceLinkRecord, run: LeasedRun) {
    let pending: DeviceRunReport['lines'] = [];
    let dropped = 0;
    let successfulIterations = 0;
    let totalIterations = 0;
    let inFlight: Promise<boolean> | null = null;
    let again = false;
    let soon: NodeJS.Timeout | null = null;
    /** The server no longer holds this run for us (409) or no longer knows our token (401): report and finish nothing more. */
    let lost: 'lease' | 'token' | null = null;
    let stopRelayed = false;
    let stopRobot: (by: 'user' | 'device') => void = () => undefined;

    const heartbeat = setInterval(() => void flush(), Math.max(50, Math.floor(run.leaseMs / 3)));
    heartbeat.unref();

    const takeBatch = () => {
      const lines = pending.splice(0, MAX_LINES_PER_REPORT);
      if (dropped > 0) {
        lines.unshift({ level: 'warn', text: `(${dropped} líneas del registro no se han podido enviar al servidor)` });
        dropped = 0;
      }
      return lines;
    };

    /** Sends what is pending; false when the server could not be reached (the lines stay pending). */
    const flush = (): Promise<boolean> => {
      if (soon) clearTimeout(soon);
      soon = null;
      if (lost) return Promise.resolve(false);
      if (inFlight) {
        again = true;
        return inFlight;
      }
      inFlight = (async () => {
        do {
          again = false;
          const lines = takeBatch();
          try {
            const answer = await client.report(run.runId, { lines, successfulIterations, totalIterations });
            if (answer.stop && !stopRelayed) {
              stopRelayed = true;
              stopRobot('user');
            }
            if (pending.length > 0) again = true;
          } catch (error) {
            if (error instanceof DeviceError && (error.reason === 'conflict' || error.reason === 'token-refused')) {
              lose(error.reason === 'conflict' ? 'lease' : 'token');
              return false;
            }
            pending = [...lines, ...pending];
            return false;
          }
        } while (again && !lost);
        return true;
      })().finally(() => {
        inFlight = null;
      });
      return inFlight;
    };

    const lose = (what: 'lease' | 'token') => {
      lost = what;
      pending = [];
      // The server has closed this run (or forgotten this PC): a robot still working would be wasted.
      stopRobot('device');
      if (what === 'token') void link.tokenRefused(record);
    };

    return {
      onStop(stop: (by: 'user' | 'device') => void) {
        stopRobot = stop;
      },
      /** Whether a call for this run (a file download) was answered as a lost lease or a forgotten token; if so, nothing more is reported. */
      refused(error: unknown): boolean {
        if (!(error instanceof DeviceError) || (error.reason !== 'conflict' && error.reason !== 'token-refused')) return false;
        lose(error.reason === 'conflict' ? 'lease' : 'token');
        return true;
      },
      line(level: DeviceRunReport['lines'][number]['level'], text: string) {
        if (lost) return;
        pending.push({ level, text: text.slice(0, MAX_LINE_CHARS) });
        if (pending.length > MAX_PENDING_LINES) {
          dropped += pending.length - MAX_PENDING_LINES;
          pending.splice(0, pending.length - MAX_PENDING_LINES);
        }
        soon ??= setTimeout(() => void flush(), lineFlushMs);
      },
      progress(successful: number, total: number) {
        successfulIterations = Math.max(0, Math.trunc(successful));
        totalIterations = Math.max(0, Math.trunc(total));
        soon ??= setTimeout(() => void flush(), lineFlushMs);
      },
      /** After the robot: the last lines, then the outcome. Returns a line for the host's log when the run could not be closed. */
      async end(outcome: RobotOutcome): Promise<string | null> {
        clearInterval(heartbeat);
        for (let attempt = 0; attempt < FINISH_ATTEMPTS && !lost && (pending.length > 0 || dropped > 0 || attempt === 0); attempt += 1) {
          if (await flush()) break;
          await sleep(backoff.firstMs * 2 ** attempt, neverAborted);
        }
        if (soon) clearTimeout(soon);
        if (lost === 'lease') return `Dispositivo: la ejecución ${run.runId} ya no era de este equipo (el servidor la cerró); no se envía su resultado.`;
        if (lost === 'token') return `Dispositivo: ${DEVICE_TOKEN_INVALID_MESSAGE}`;
        const body = await outcomeForServer(outcome, run).catch(
          (error: unknown): DeviceRunOutcome => ({
            kind: 'failed',
            message: `No se han podido leer los resultados del robot en este equipo: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2000),
          }),
        );
        for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt += 1) {
          try {
            await client.finish(run.runId, body);
            return null;
          } catch (error) {
            if (error instanceof DeviceError && error.reason === 'token-refused') await link.tokenRefused(record);
            if (!(error instanceof DeviceError) || error.reason !== 'unreachable') {
              return `Dispositivo: el servidor no ha aceptado el final de la ejecución ${run.runId}: ${error instanceof Error ? error.message : String(error)}`;
            }
            if (attempt < FINISH_ATTEMPTS - 1) await sleep(backoff.firstMs * 2 ** attempt, neverAborted);
          }
        }
        return `Dispositivo: no se ha podido enviar el final de la ejecución ${run.runId}; el servidor la cerrará al vencer su plazo.`;
      },
    };
  }

  const describe = (execution: Execution) => ({ runId: execution.run.runId, outputFolder: execution.outputFolder });
  const byToken = (executionToken: string) => [...executions.values()].find((execution) => execution.run.executionToken === executionToken);

  return {
    outputRoot: options.outputRoot,
    running: liveCount,
    async start() {
      await link.ready();
      stopFollowing ??= link.onChange(follow);
      follow(link.current());
    },
    async launch(executionToken, flowId) {
      await link.ready();
      const record = link.current();
      const client = link.client();
      if (!record || !client) throw new DeviceError('not-linked', NOT_LINKED_MESSAGE);
      const mine = (execution: Execution) => {
        if (flowId !== undefined && execution.run.flowId !== flowId) throw new DeviceError('invalid', FLOW_MISMATCH_MESSAGE);
        return describe(execution);
      };
      const known = byToken(executionToken);
      if (known) return mine(known);
      let run: LeasedRun;
      try {
        run = await client.claimRun(executionToken);
      } catch (error) {
        if (error instanceof DeviceError && error.reason === 'token-refused') {
          await link.tokenRefused(record);
          throw new DeviceError('token-refused', DEVICE_TOKEN_INVALID_MESSAGE);
        }
        // The run loop of this same PC may have leased it first (its long poll is woken by the launch).
        if (error instanceof DeviceError && error.reason === 'conflict') {
          const deadline = Date.now() + claimRaceMs;
          for (let found = byToken(executionToken); ; found = byToken(executionToken)) {
            if (found) return mine(found);
            const left = deadline - Date.now();
            if (left <= 0) break;
            await nextChange(neverAborted, left);
          }
        }
        throw error;
      }
      if (flowId !== undefined && run.flowId !== flowId) {
        // Leased but not the robot the window asked for: close it now rather than leave it to time out.
        await client.finish(run.runId, { kind: 'failed', message: FLOW_MISMATCH_MESSAGE }).catch(() => undefined);
        throw new DeviceError('invalid', FLOW_MISMATCH_MESSAGE);
      }
      return describe(begin(client, record, run));
    },
    async shutdown(timeoutMs = 20_000) {
      closing = true;
      stopFollowing?.();
      polling?.abort();
      polling = null;
      const open = [...executions.values()];
      for (const execution of open) if (!execution.robotEnded) execution.stop('device');
      await Promise.race([Promise.all(open.map((execution) => execution.done)), delay(timeoutMs, undefined, { ref: false })]);
    },
  };
}

const neverAborted = new AbortController().signal;

async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}
