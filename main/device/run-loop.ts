import { setTimeout as delay } from 'node:timers/promises';
import type { LeasedRun } from '#shared/api/devices.ts';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import { flowLocalProcess } from '../../resources/flows/local-process-flows.ts';
import type { RobotHost } from '../bridge/context.ts';
import type { RobotOutcome, RobotRuntime, RunningRobot } from '../robots/types.ts';
import type { DeviceLinkService } from './connection.ts';
import { downloadRunFiles, jobFolderFor, type RunFiles } from './run-files.ts';
import { createRunReporter, neverAborted } from './run-reporter.ts';
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
    const reporter = createRunReporter({ client, record, run, link, lineFlushMs, retryFirstMs: backoff.firstMs, sleep });
    let robot: RunningRobot | null = null;
    /** A stop asked before the robot started (while its files download): it never starts. */
    let stoppedEarly: 'user' | 'device' | null = null;
    const downloading = new AbortController();
    const startRobot = (files: RunFiles): Promise<RobotOutcome> => {
      if (stoppedEarly) return Promise.resolve({ kind: 'stopped', by: stoppedEarly });
      robot = options.runtime.start(
        // A schedule's local process (LeasedRun.localProcess) goes to the runtime with the job; a flow that
        // stands for one (no robot: 'FIE de SILTRA a A3'...) runs it even when the lease does not say (older server).
        { runId: run.runId, flowId: run.flowId, inputs: files.inputs, files: files.files, timeLimitSeconds: run.timeLimitSeconds, startedAt: run.startedAt, outputFolder, ...withLocalProcess(run) },
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

async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}

/** The job's local process: the lease's (a schedule's), else the one its flow stands for in the app's catalogue. */
function withLocalProcess(run: LeasedRun): { localProcess?: string } {
  const localProcess = run.localProcess || flowLocalProcess(run.flowId);
  return localProcess ? { localProcess } : {};
}
