import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Kysely, Selectable } from 'kysely';
import { LEASE_LOST_MESSAGE } from '#shared/api/devices.ts';
import type { ExecutionStateResponse, OutputData } from '#shared/api/flows.ts';
import type { Database, FlowRunsTable } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { isMachineLease, isOnline, machineTarget, MACHINE_GONE_MESSAGE, parseOutputFileNames } from '../devices/machine-runs.ts';
import { recordRunCreated } from '../flowlogs/counts.ts';
import { consoleLinesAfter, consoleTail } from '../flowlogs/lines.ts';
import type { FlowCatalogue } from '../flows/catalogue.ts';
import { flowNotFound } from '../flows/errors.ts';
import { findGroupUpload, type FileStorage } from '../storage/service.ts';
import type { UploadInspections } from '../storage/inspections.ts';
import { aborted, closeRunOnce, closingFor, failed, STOPPED_MESSAGE, type CloseGuard, type Closing, type DesktopOutputs } from './closing.ts';
import { costOf, estimateUnits } from './cost.ts';
import { creditRefusal, inputsRefusalMessage, recordRefusedLaunch, type NewRunRow } from './refusals.ts';
import { checkInputs, flowInputs } from './inputs.ts';
import { firmLoad, firmRunning, lockFirm, nextQueueRank, tooManyQueued } from './reservations.ts';
import { RunLogWriter } from './log-writer.ts';
import { startRunProcess, type RunningRobot } from './run-child.ts';
import type { QueuedRun, RunQueue } from './queue.ts';
import type { RunProcessJob } from './run-protocol.ts';
import type { LaunchInput, RunLauncher } from './launcher.ts';

export interface RunsOptions {
  /** Runs executing at once in this process (RUN_CONCURRENCY). */
  concurrency: number;
  /** Heap limit of each run's process, in MB. */
  memoryMb: number;
  /**
   * How long a claim on a running run holds without renewal (a server process's, or a machine's that
   * reports), after which the run is closed as 299 (RUN_LEASE_MS).
   */
  leaseMs: number;
  /** How long a stopped or timed-out robot may take to return before its thread is terminated. */
  stopGraceMs: number;
  /** Runs of one firm waiting (queued, or for a machine) before its launches get 429 (RUN_FIRM_QUEUE). */
  queuedPerFirm: number;
  /** Server runs of one firm executing at once over every server process (RUN_FIRM_CONCURRENCY). */
  runningPerFirm: number;
  /** A module exporting `builtInFlows` for the run process to load robots from (tests); null: resources/flows. */
  flowsModule: string | null;
}

export const RUN_NOT_FOUND_MESSAGE = 'No se ha encontrado esta ejecución';
export const ABANDONED_MESSAGE = 'El servidor que ejecutaba este robot se detuvo antes de terminar. No se ha cobrado.';

/** How often a running run checks for a stop asked through another server process. */
const STOP_CHECK_MS = 1_000;
/** A run whose firm had its limit of runs executing is offered again after this. */
const FIRM_BUSY_RETRY_MS = 1_000;
/** Expired claims are looked for at least this often (a machine's run lost with it is closed within this of its lease). */
const SWEEP_MAX_MS = 5_000;

const machineRunsKey = (machineId: string) => `machine:${machineId}`;

type RunRow = Selectable<FlowRunsTable>;

interface ActiveRun {
  worker: RunningRobot | null;
  stopReason: 'user' | 'shutdown';
  /** Set when a stop arrives before the worker exists. */
  stopRequested: boolean;
}

export interface RunServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  catalogue: FlowCatalogue;
  storage: FileStorage;
  /** What uploads hold, inspected when they were uploaded (the estimate reads their rows and FIE entries). */
  inspections: UploadInspections;
  queue: RunQueue;
  options: RunsOptions;
  log: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
}

/**
 * Executions (spec §3 Execution request, Output; §4 launcher statuses): launching with input checks,
 * idempotency and a credit check; executing in child processes off the request thread; closing each
 * run once, with its outputs, ledger debit and usage in one transaction; reading and stopping runs.
 */
export class RunService implements RunLauncher {
  /** This process, as lease_owner of the runs it executes. */
  readonly processId = randomUUID();
  private readonly active = new Map<string, ActiveRun>();
  private readonly executing = new Set<Promise<void>>();
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private shuttingDown = false;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RunServiceDeps) {}

  // -------------------------------------------------------------------------------------------------
  // Launching

  async launch(input: LaunchInput): Promise<{ runId: string; executionToken: string }> {
    const run = await this.launchRun(input);
    return { runId: run.id, executionToken: run.execution_token };
  }

  /** The run this launch started, or the one an earlier request with the same idempotency key started. */
  async launchRun(input: LaunchInput): Promise<RunRow> {
    const { db, catalogue } = this.deps;
    const flow = catalogue.get(input.flowId);
    if (!flow) throw flowNotFound();
    const earlier = await this.findByKey(input.userId, input.idempotencyKey);
    if (earlier) return earlier;
    const { definition } = flow;
    // Desktop flows run on a machine the caller sees; server flows take none.
    const machine = await machineTarget(db, input, definition.runsOn, input.machineId);
    const remote = machine !== null && input.localLaunch !== true;
    // The history's 'scheduled' side holds scheduled runs and remote launches alike (flow_run_counts too).
    const scheduled = input.scheduleId !== undefined || remote;

    const now = this.deps.now();
    const row = (inputs: unknown): NewRunRow => ({
      group_id: input.groupId,
      user_id: input.userId,
      flow_id: definition.id,
      flow_name: definition.name,
      execution_token: randomUUID(),
      scheduled: scheduled ? 1 : 0,
      schedule_id: input.scheduleId ?? null,
      machine_id: machine?.id ?? null,
      machine_name: machine?.savedAs ?? null,
      remote: remote ? 1 : 0,
      send_output_to_server: machine === null || remote ? 1 : 0,
      usage_ratio: definition.usageRatio,
      inputs: JSON.stringify(inputs),
      accept_extra_usage: input.acceptExtraUsage === true ? 1 : 0,
      stopped_by_user: 0,
      successful_iterations: 0,
      total_iterations: 0,
      usage_units: 0,
      cost: 0,
      created_at: now.toISOString(),
    });

    const checked = await checkInputs(definition, input.inputs, (id) => findGroupUpload(db, input.groupId, id)).catch(async (error: unknown) => {
      // A schedule's inputs that are no longer valid: nobody is there to be answered, so the history says why.
      if (input.scheduleId !== undefined && error instanceof HttpError && error.statusCode === 400) {
        await recordRefusedLaunch(db, { ...row(input.inputs), id: randomUUID() }, { result: 'WrongInput', launchStatus: 400, message: inputsRefusalMessage(error) }, now);
      }
      throw error;
    });
    const estimatedCost = costOf(estimateUnits(definition, await this.deps.inspections.counts(Object.values(checked.uploads).flat())), definition.usageRatio);
    const base = row(checked.stored);

    // One decision per firm at a time: the queue's room, the balance net of what its unfinished runs
    // hold, then the run with its reservation and its place in the queue.
    const runId = randomUUID();
    let decision: { refusal: HttpError } | { rank: number | null };
    try {
      decision = await db.transaction().execute(async (trx) => {
        await lockFirm(trx, input.groupId);
        const load = await firmLoad(trx, input.groupId);
        if (load.queued >= this.deps.options.queuedPerFirm) throw tooManyQueued(this.deps.options.queuedPerFirm);
        const refusal = await creditRefusal(trx, input, estimatedCost, now, load.reserved);
        if (refusal) return { refusal };
        const rank = machine === null ? await nextQueueRank(trx, input.groupId) : null;
        await trx
          .insertInto('flow_runs')
          .values({ ...base, id: runId, idempotency_key: input.idempotencyKey, state: 'queued', reserved_cost: estimatedCost, queue_rank: rank })
          .execute();
        await recordRunCreated(trx, input.groupId, scheduled);
        return { rank };
      });
    } catch (error) {
      // Two requests with one key at the same instant: the unique index lets one in; the other answers with it.
      const winner = await this.findByKey(input.userId, input.idempotencyKey);
      if (winner) return winner;
      throw error;
    }
    if ('refusal' in decision) {
      // In the history as NotEnoughSlans; without a key, the same request can start after a top-up (or with 'Continuar').
      await recordRefusedLaunch(db, { ...base, id: randomUUID() }, { result: 'NotEnoughSlans', launchStatus: 402, message: decision.refusal.message }, now);
      throw decision.refusal;
    }
    // A machine's run waits for that machine (its long poll is woken here); the rest go to the server's queue.
    if (machine) this.changes.emit(machineRunsKey(machine.id));
    else await this.deps.queue.enqueue({ runId, groupId: input.groupId, rank: decision.rank ?? 0 });
    return this.findById(runId);
  }

  /** Calls `listener` whenever this process queues a run for the machine; returns the unsubscribe. */
  onMachineRunQueued(machineId: string, listener: () => void): () => void {
    this.changes.on(machineRunsKey(machineId), listener);
    return () => this.changes.off(machineRunsKey(machineId), listener);
  }

  // -------------------------------------------------------------------------------------------------
  // Reading and stopping

  private findById(runId: string): Promise<RunRow> {
    return this.deps.db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
  }

  private findByKey(userId: string, idempotencyKey: string): Promise<RunRow | undefined> {
    return this.deps.db.selectFrom('flow_runs').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  }

  /** A run of the group by its execution token; another group's is a 404 like a missing one. */
  async findGroupRun(groupId: string, executionToken: string): Promise<RunRow> {
    const run = await this.deps.db.selectFrom('flow_runs').selectAll().where('execution_token', '=', executionToken).where('group_id', '=', groupId).executeTakeFirst();
    if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
    return run;
  }

  /**
   * The state the launcher polls. With `wait`, answers as soon as something changed (a log line past
   * `since`, progress, the end) or after that many seconds.
   */
  async state(groupId: string, executionToken: string, query: { wait?: number; since?: number } = {}): Promise<ExecutionStateResponse> {
    const since = query.since ?? 0;
    let run = await this.findGroupRun(groupId, executionToken);
    const deadline = Date.now() + (query.wait ?? 0) * 1000;
    if (run.state !== 'finished' && Date.now() < deadline) {
      // One snapshot decides whether to wait and what counts as a change: a line written between two
      // separate reads would otherwise be taken for the starting point and the poll would miss it.
      const before = await this.progressMark(run.id);
      if (!before.finished && before.lines <= since) {
        // A server shutting down answers at once rather than holding its close for a long poll.
        while (!this.shuttingDown && Date.now() < deadline && (await this.progressMark(run.id)).key === before.key) await this.changed(run.id, Math.min(500, deadline - Date.now()));
      }
      run = await this.findById(run.id);
    }
    return this.describe(run, since);
  }

  /** Resolves once the run has finished (a schedule waits for its run this way). */
  async finished(runId: string): Promise<{ result: string | null; launchStatus: number | null }> {
    for (;;) {
      const run = await this.deps.db.selectFrom('flow_runs').select(['state', 'result', 'launch_status']).where('id', '=', runId).executeTakeFirst();
      if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
      if (run.state === 'finished') return { result: run.result, launchStatus: run.launch_status };
      await this.changed(runId, 1_000);
    }
  }

  /**
   * The user's stop: a queued run ends at once; a running one is stopped by whichever process runs it
   * (at once here, within a second elsewhere). Charged nothing either way. Answers the state after it.
   */
  async stop(groupId: string, executionToken: string): Promise<ExecutionStateResponse> {
    const run = await this.findGroupRun(groupId, executionToken);
    if (run.state !== 'finished') {
      await this.deps.db.updateTable('flow_runs').set({ stopped_by_user: 1 }).where('id', '=', run.id).where('state', '!=', 'finished').execute();
      const closedWhileQueued = run.state === 'queued' && (await this.closeRun(run.id, aborted(STOPPED_MESSAGE, true), 'queued'));
      if (!closedWhileQueued) {
        const local = this.active.get(run.id);
        if (local) {
          local.stopRequested = true;
          local.worker?.stop();
        }
        const deadline = Date.now() + this.deps.options.stopGraceMs + 5_000;
        while (Date.now() < deadline && (await this.findById(run.id)).state !== 'finished') await this.changed(run.id, 500);
      }
    }
    return this.describe(await this.findById(run.id), 0);
  }

  private async lineCount(runId: string): Promise<number> {
    const row = await this.deps.db.selectFrom('flow_run_logs').select((eb) => eb.fn.countAll().as('n')).where('run_id', '=', runId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** What a long poll watches: the run's state, its iterations and how many log lines it has. */
  private async progressMark(runId: string): Promise<{ key: string; lines: number; finished: boolean }> {
    const run = await this.deps.db.selectFrom('flow_runs').select(['state', 'successful_iterations', 'total_iterations']).where('id', '=', runId).executeTakeFirstOrThrow();
    const lines = await this.lineCount(runId);
    return { key: `${run.state}|${run.successful_iterations}|${run.total_iterations}|${lines}`, lines, finished: run.state === 'finished' };
  }

  /** Waits for a change this process makes to the run, or `ms` (a change made elsewhere is polled for). */
  private changed(runId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.changes.off(runId, done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.changes.on(runId, done);
    });
  }

  private async describe(run: RunRow, since: number): Promise<ExecutionStateResponse> {
    const { db } = this.deps;
    // Bounded: the next lines after `since` (the launcher asks again from there), never the whole log.
    const lines = await consoleLinesAfter(db, run.id, since);
    const state: ExecutionStateResponse = {
      executionToken: run.execution_token,
      runId: run.id,
      state: run.state,
      successfulIterations: Number(run.successful_iterations),
      totalIterations: Number(run.total_iterations),
      consoleLog: lines,
      ...(run.machine_name !== null && { machine: await this.machineOf(run) }),
    };
    if (run.state !== 'finished') return state;
    const files = await db.selectFrom('stored_files').select(['name', 'size']).where('run_id', '=', run.id).where('kind', '=', 'output').orderBy('name').execute();
    const data: OutputData = {
      runId: run.id,
      files: files.map((file) => ({ name: file.name, size: Number(file.size) })),
      usageUnits: Number(run.usage_units),
      usageRatio: Number(run.usage_ratio),
      cost: Number(run.cost),
      ...(run.summary !== null && { summary: JSON.parse(run.summary) as OutputData['summary'] }),
      ...(run.message !== null && { message: run.message }),
      // A desktop run's files are in its folder on the machine (and in `files` when it sent them here).
      ...(run.machine_name !== null && { outputFolder: run.output_folder, outputFileNames: parseOutputFileNames(run.output_file_names) }),
    };
    return { ...state, output: { data, status: run.launch_status ?? 500, executionToken: run.execution_token, consoleLog: await consoleTail(db, run.id) } };
  }

  /** The machine a run waits for or runs on, as the launcher shows it (by the name it was launched on, once deleted). */
  private async machineOf(run: RunRow): Promise<NonNullable<ExecutionStateResponse['machine']>> {
    const machine = run.machine_id === null ? undefined : await this.deps.db.selectFrom('machines').select(['id', 'saved_as', 'last_seen_at']).where('id', '=', run.machine_id).executeTakeFirst();
    if (!machine) return { _id: run.machine_id ?? '', name: run.machine_name ?? '', online: false };
    return { _id: machine.id, name: machine.saved_as, online: isOnline(machine.last_seen_at, this.deps.now()) };
  }

  // -------------------------------------------------------------------------------------------------
  // Executing

  /** Called by the queue: claims the run and executes it; a run already claimed or finished is left alone. */
  execute = (queued: QueuedRun): Promise<void> => {
    const execution = this.executeClaimed(queued).catch((error: unknown) => this.deps.log.error({ err: error, runId: queued.runId }, 'Error al ejecutar un robot'));
    this.executing.add(execution);
    return execution.finally(() => this.executing.delete(execution));
  };

  private async executeClaimed(job: QueuedRun): Promise<void> {
    const { runId } = job;
    // A job queued before firms had ranks carries its run id alone.
    const queued = job.groupId ? job : { ...job, groupId: (await this.findById(runId)).group_id, rank: 0 };
    // Fetched as the server stops: handed back, so another process (or the next start) runs it.
    if (this.shuttingDown) return this.deps.queue.enqueue(queued);
    const claim = await this.claim(queued);
    if (claim === 'firm-busy') return this.deps.queue.enqueue(queued, FIRM_BUSY_RETRY_MS);
    if (claim === 'gone') return;
    const startedAt = claim;

    const activeRun: ActiveRun = { worker: null, stopReason: 'user', stopRequested: false };
    this.active.set(runId, activeRun);
    this.emitChange(runId);
    let closing: Closing;
    try {
      closing = await this.runWorker(await this.findById(runId), startedAt, activeRun);
    } catch (error) {
      closing = failed(500, 'El robot no se ha lanzado correctamente', `No se ha podido lanzar el robot: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.active.delete(runId);
    }
    await this.closeRun(runId, closing, 'unfinished');
  }

  /**
   * Takes a queued server run for this process (queued -> running, with a lease), unless its firm
   * already has its limit of runs executing (on any process): then it waits its turn again.
   */
  private async claim(queued: QueuedRun): Promise<Date | 'gone' | 'firm-busy'> {
    const { db, options } = this.deps;
    return db.transaction().execute(async (trx) => {
      await lockFirm(trx, queued.groupId);
      if ((await firmRunning(trx, queued.groupId)) >= options.runningPerFirm) {
        const still = await trx.selectFrom('flow_runs').select('id').where('id', '=', queued.runId).where('state', '=', 'queued').executeTakeFirst();
        return still ? 'firm-busy' : 'gone';
      }
      const startedAt = this.deps.now();
      const claimed = await trx
        .updateTable('flow_runs')
        .set({ state: 'running', started_at: startedAt.toISOString(), lease_owner: this.processId, lease_until: new Date(startedAt.getTime() + options.leaseMs).toISOString() })
        .where('id', '=', queued.runId)
        .where('state', '=', 'queued')
        // A machine's run is only ever leased by that machine.
        .where('machine_name', 'is', null)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 0 ? 'gone' : startedAt;
    });
  }

  private async runWorker(run: RunRow, startedAt: Date, activeRun: ActiveRun): Promise<Closing> {
    const { db, options, catalogue } = this.deps;
    const flow = catalogue.get(run.flow_id);
    if (!flow) return failed(500, 'Este robot ya no forma parte de nuestra familia', 'Este robot ya no forma parte de nuestra familia');
    const job = await this.processJob(run, flow.definition, startedAt);

    const firstSeq = await db.selectFrom('flow_run_logs').select((eb) => eb.fn.max('seq').as('last')).where('run_id', '=', run.id).executeTakeFirst();
    const writer = new RunLogWriter(db, run.id, firstSeq?.last === null || firstSeq?.last === undefined ? 0 : Number(firstSeq.last) + 1, this.deps.now, () => this.emitChange(run.id), (error) =>
      this.deps.log.warn({ err: error, runId: run.id }, 'No se han podido guardar líneas del registro de un robot'),
    );
    const worker = startRunProcess(job, { timeLimitMs: flow.definition.timeLimitSeconds * 1000, memoryMb: options.memoryMb, stopGraceMs: options.stopGraceMs }, writer);
    activeRun.worker = worker;
    if (activeRun.stopRequested) worker.stop();

    // Keep the claim alive and hear stops asked through another server process.
    let ticks = 0;
    const renewEvery = Math.max(1, Math.floor(options.leaseMs / 3 / STOP_CHECK_MS));
    const watch = setInterval(() => {
      ticks += 1;
      void (async () => {
        if (ticks % renewEvery === 0) {
          await db.updateTable('flow_runs').set({ lease_until: new Date(this.deps.now().getTime() + options.leaseMs).toISOString() }).where('id', '=', run.id).where('state', '=', 'running').execute();
        }
        const row = await db.selectFrom('flow_runs').select('stopped_by_user').where('id', '=', run.id).executeTakeFirst();
        if (row?.stopped_by_user === 1) worker.stop();
      })().catch((error: unknown) => this.deps.log.warn({ err: error, runId: run.id }, 'No se ha podido renovar la ejecución de un robot'));
    }, STOP_CHECK_MS);
    try {
      const outcome = await worker.outcome;
      await writer.flush();
      return closingFor(outcome, flow.definition.timeLimitSeconds, activeRun.stopReason);
    } finally {
      clearInterval(watch);
    }
  }

  /** The run process's job: the inputs as checked at launch and where the uploads are stored (it reads them itself). */
  private async processJob(run: RunRow, definition: Parameters<typeof flowInputs>[0], startedAt: Date): Promise<RunProcessJob> {
    const stored = JSON.parse(run.inputs) as Record<string, unknown>;
    const inputs: Record<string, unknown> = {};
    const files: RunProcessJob['files'] = {};
    const fileKeys = new Set(flowInputs(definition).filter((input) => input.template === 'FileUpload').map((input) => input.key));
    for (const [key, value] of Object.entries(stored)) {
      if (!fileKeys.has(key)) {
        inputs[key] = value;
        continue;
      }
      files[key] = [];
      for (const { uploadId } of value as { uploadId: string }[]) {
        const upload = await findGroupUpload(this.deps.db, run.group_id, uploadId);
        if (!upload) throw new Error('uno de los archivos subidos ya no existe');
        files[key].push({ name: upload.name, path: this.deps.storage.pathOf(upload.storage_key) });
      }
    }
    return { flowId: run.flow_id, flowsModule: this.deps.options.flowsModule, inputs, files, startedAt: startedAt.toISOString() };
  }

  // -------------------------------------------------------------------------------------------------
  // Closing

  /**
   * Ends a run once (closing.ts closeRunOnce) and wakes whoever waits on it. False when the run was
   * not in the state `guard` allows: nothing written, nothing charged.
   */
  async closeRun(runId: string, closing: Closing, guard: CloseGuard, desktop?: DesktopOutputs): Promise<boolean> {
    const closed = await closeRunOnce(this.deps, runId, closing, guard, desktop);
    this.emitChange(runId);
    return closed;
  }

  /** Wakes whoever waits on the run in this process (the launcher's long poll); others poll. */
  emitChange(runId: string): void {
    this.changes.emit(runId);
  }

  // -------------------------------------------------------------------------------------------------
  // Start and shutdown

  /**
   * Closes runs whose process or machine stopped answering (claim expired) as FlowAborted (299),
   * charged nothing, and runs left waiting for a machine since deleted; with the in-process queue,
   * queues again the server runs a previous process left waiting.
   */
  async recover(requeueWaiting: boolean): Promise<void> {
    const { db } = this.deps;
    const expired = await db.selectFrom('flow_runs').select(['id', 'lease_owner']).where('state', '=', 'running').where('lease_until', '<', this.deps.now().toISOString()).execute();
    for (const run of expired) await this.closeRun(run.id, aborted(isMachineLease(run.lease_owner) ? LEASE_LOST_MESSAGE : ABANDONED_MESSAGE, false), 'expired');
    const orphans = await db.selectFrom('flow_runs').select('id').where('state', '=', 'queued').where('machine_name', 'is not', null).where('machine_id', 'is', null).execute();
    for (const { id } of orphans) await this.closeRun(id, aborted(MACHINE_GONE_MESSAGE, false), 'queued');
    if (!requeueWaiting) return;
    const waiting = await db.selectFrom('flow_runs').select(['id', 'group_id', 'queue_rank']).where('state', '=', 'queued').where('machine_name', 'is', null).orderBy('created_at').execute();
    for (const run of waiting) await this.deps.queue.enqueue({ runId: run.id, groupId: run.group_id, rank: Number(run.queue_rank ?? 0) });
  }

  async start(requeueWaiting: boolean): Promise<void> {
    await this.recover(requeueWaiting);
    await this.deps.queue.start(this.execute);
    // Another process or a machine may die while this one lives: its runs are closed soon after their claim runs out.
    this.sweepTimer = setInterval(() => {
      this.recover(false).catch((error: unknown) => this.deps.log.warn({ err: error }, 'No se han podido cerrar ejecuciones abandonadas'));
    }, Math.min(this.deps.options.leaseMs, SWEEP_MAX_MS));
    this.sweepTimer.unref();
  }

  /** Takes no more runs, ends the ones running here (FlowAborted, not charged) and closes the queue. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    clearInterval(this.sweepTimer);
    await this.deps.queue.pause();
    for (const run of this.active.values()) {
      run.stopReason = 'shutdown';
      run.stopRequested = true;
      run.worker?.stop();
    }
    await Promise.allSettled([...this.executing]);
    await this.deps.queue.close();
  }
}
