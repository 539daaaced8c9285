import type { Kysely } from 'kysely';
import { LEASE_LOST_MESSAGE } from '#shared/api/devices.ts';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { isMachineLease, MACHINE_GONE_MESSAGE } from '../devices/machine-runs.ts';
import type { FlowDirectory } from '../flows/directory.ts';
import type { FileStorage } from '../storage/service.ts';
import { sweepStaging } from '../storage/staged-outputs.ts';
import type { UploadInspections } from '../storage/inspections.ts';
import { RunChanges } from './changes.ts';
import { aborted, closeRunOnce, STOPPED_MESSAGE, type CloseGuard, type Closing, type DesktopOutputs } from './closing.ts';
import { RunExecutor } from './executor.ts';
import { launchRun } from './launching.ts';
import type { LaunchInput, RunLauncher } from './launcher.ts';
import type { RunsOptions } from './options.ts';
import type { QueuedRun, RunQueue } from './queue.ts';
import { describeRun, findGroupRun, findRunById, progressMark, RUN_NOT_FOUND_MESSAGE, type RunRow } from './run-state.ts';

export const ABANDONED_MESSAGE = 'El servidor que ejecutaba este robot se detuvo antes de terminar. No se ha cobrado.';

/** Expired claims are looked for at least this often (a machine's run lost with it is closed within this of its lease). */
const SWEEP_MAX_MS = 5_000;
/** On PostgreSQL, waiting runs are looked at this often (or more often, for a shorter resendWaitingAfterMs). */
const RESEND_EVERY_MS = 30_000;
/** Runs sent again at once (the oldest first): the rest follow at the next pass. */
const RESEND_AT_MOST = 5_000;

/** Server runs waiting for a slot (a machine's runs wait for their machine instead), as the queue takes them. */
const waitingServerRuns = (db: Kysely<Database>) => db.selectFrom('flow_runs').select(['id', 'group_id', 'queue_rank']).where('state', '=', 'queued').where('machine_name', 'is', null);
const queuedRun = (run: { id: string; group_id: string; queue_rank: number | string | null }): QueuedRun => ({ runId: run.id, groupId: run.group_id, rank: Number(run.queue_rank ?? 0) });

export interface RunServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The built-in flows (the executor's) and the firm's macros (launches). */
  flows: FlowDirectory;
  storage: FileStorage;
  /** What uploads hold, inspected when they were uploaded (the estimate reads their rows and FIE entries). */
  inspections: UploadInspections;
  queue: RunQueue;
  options: RunsOptions;
  log: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
}

/**
 * Executions (spec §3 Execution request, Output; §4 launcher statuses), what routes, schedules and
 * machines' runs use: launching (launching.ts), executing in child processes off the request thread
 * (executor.ts), closing each run once with its outputs, ledger debit and usage in one transaction
 * (closing.ts), reading a run's state (run-state.ts), long polls and stops; recovery of runs whose
 * process or machine stopped answering, start and shutdown.
 */
export class RunService implements RunLauncher {
  private readonly changes = new RunChanges();
  private readonly executor: RunExecutor;
  private sweepTimer: NodeJS.Timeout | undefined;
  private resendTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RunServiceDeps) {
    this.executor = new RunExecutor({
      ...deps,
      catalogue: deps.flows.catalogue,
      changes: this.changes,
      closeRun: (runId, closing, guard) => this.closeRun(runId, closing, guard),
      offerFirmSlot: (groupId) => this.offerFirmSlot(groupId),
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Launching

  async launch(input: LaunchInput): Promise<{ runId: string; executionToken: string }> {
    const run = await this.launchRun(input);
    return { runId: run.id, executionToken: run.execution_token };
  }

  /** The run this launch started, or the one an earlier request with the same idempotency key started. */
  launchRun(input: LaunchInput): Promise<RunRow> {
    const { db, now, flows, inspections, queue, options } = this.deps;
    return launchRun({ db, now, flows, inspections, queue, queuedPerFirm: options.queuedPerFirm, changes: this.changes }, input);
  }

  /** Calls `listener` whenever this process queues a run for the machine; returns the unsubscribe. */
  onMachineRunQueued(machineId: string, listener: () => void): () => void {
    return this.changes.onMachineRunQueued(machineId, listener);
  }

  // -------------------------------------------------------------------------------------------------
  // Reading and stopping

  /** A run of the group by its execution token; another group's is a 404 like a missing one. */
  findGroupRun(groupId: string, executionToken: string): Promise<RunRow> {
    return findGroupRun(this.deps.db, groupId, executionToken);
  }

  /**
   * The state the launcher polls. With `wait`, answers as soon as something changed (a log line past
   * `since`, progress, the end) or after that many seconds.
   */
  async state(groupId: string, executionToken: string, query: { wait?: number; since?: number } = {}): Promise<ExecutionStateResponse> {
    const { db, now } = this.deps;
    const since = query.since ?? 0;
    let run = await this.findGroupRun(groupId, executionToken);
    const deadline = Date.now() + (query.wait ?? 0) * 1000;
    if (run.state !== 'finished' && Date.now() < deadline) {
      // One snapshot decides whether to wait and what counts as a change: a line written between two
      // separate reads would otherwise be taken for the starting point and the poll would miss it.
      const before = await progressMark(db, run.id);
      if (!before.finished && before.lines <= since) {
        // A server shutting down answers at once rather than holding its close for a long poll.
        while (!this.executor.shuttingDown && Date.now() < deadline && (await progressMark(db, run.id)).key === before.key) await this.changes.nextChange(run.id, Math.min(500, deadline - Date.now()));
      }
      run = await findRunById(db, run.id);
    }
    return describeRun(db, now, run, since);
  }

  /** Resolves once the run has finished (a schedule waits for its run this way). */
  async finished(runId: string): Promise<{ result: string | null; launchStatus: number | null }> {
    for (;;) {
      const run = await this.deps.db.selectFrom('flow_runs').select(['state', 'result', 'launch_status']).where('id', '=', runId).executeTakeFirst();
      if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
      if (run.state === 'finished') return { result: run.result, launchStatus: run.launch_status };
      await this.changes.nextChange(runId, 1_000);
    }
  }

  /**
   * The user's stop: a queued run ends at once; a running one is stopped by whichever process runs it
   * (at once here, within a second elsewhere). Charged nothing either way. Answers the state after it.
   */
  async stop(groupId: string, executionToken: string): Promise<ExecutionStateResponse> {
    const { db, now } = this.deps;
    const run = await this.findGroupRun(groupId, executionToken);
    if (run.state !== 'finished') {
      await db.updateTable('flow_runs').set({ stopped_by_user: 1 }).where('id', '=', run.id).where('state', '!=', 'finished').execute();
      const closedWhileQueued = run.state === 'queued' && (await this.closeRun(run.id, aborted(STOPPED_MESSAGE, true), 'queued'));
      if (!closedWhileQueued) {
        this.executor.stopIfHere(run.id);
        const deadline = Date.now() + this.deps.options.stopGraceMs + 5_000;
        while (Date.now() < deadline && (await findRunById(db, run.id)).state !== 'finished') await this.changes.nextChange(run.id, 500);
      }
    }
    return describeRun(db, now, await findRunById(db, run.id), 0);
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

  /**
   * One of the firm's server runs stopped executing, so the firm has room for another: its earliest
   * waiting runs are sent to the queue again (the queue skips those whose job still waits). A job
   * fetched while its firm was at its limit of runs executing was dropped (RunExecutor), and this is
   * what brings its run back, at its old rank, ahead of the runs queued behind it.
   */
  async offerFirmSlot(groupId: string): Promise<void> {
    const waiting = await waitingServerRuns(this.deps.db).where('group_id', '=', groupId).orderBy('queue_rank').orderBy('created_at').limit(this.deps.options.runningPerFirm).execute();
    await this.deps.queue.resend(waiting.map(queuedRun));
  }

  /** Wakes whoever waits on the run in this process (the launcher's long poll); others poll. */
  emitChange(runId: string): void {
    this.changes.runChanged(runId);
  }

  // -------------------------------------------------------------------------------------------------
  // Start and shutdown

  /**
   * Closes runs whose process or machine stopped answering (claim expired) as FlowAborted (299),
   * charged nothing, and runs left waiting for a machine since deleted. Answers the firms whose server
   * runs were closed: each had a slot held by a dead process, to offer again once the queue runs.
   */
  async recover(): Promise<Set<string>> {
    const { db } = this.deps;
    const freed = new Set<string>();
    const expired = await db.selectFrom('flow_runs').select(['id', 'group_id', 'lease_owner']).where('state', '=', 'running').where('lease_until', '<', this.deps.now().toISOString()).execute();
    for (const run of expired) {
      const onMachine = isMachineLease(run.lease_owner);
      const closed = await this.closeRun(run.id, aborted(onMachine ? LEASE_LOST_MESSAGE : ABANDONED_MESSAGE, false), 'expired');
      if (closed && !onMachine) freed.add(run.group_id);
    }
    const orphans = await db.selectFrom('flow_runs').select('id').where('state', '=', 'queued').where('machine_name', 'is not', null).where('machine_id', 'is', null).execute();
    for (const { id } of orphans) await this.closeRun(id, aborted(MACHINE_GONE_MESSAGE, false), 'queued');
    await sweepStaging(this.deps.storage.root, async (runIds) => {
      const live = await db.selectFrom('flow_runs').select('id').where('id', 'in', runIds).where('state', '!=', 'finished').execute();
      const alive = new Set(live.map((run) => run.id));
      return new Set(runIds.filter((id) => !alive.has(id)));
    });
    return freed;
  }

  /**
   * Sends the server runs waiting since `olderThanMs` ago to the queue again (the queue skips those
   * whose job still waits): the in-process queue's jobs die with a previous process, and a pg-boss job
   * is lost when a process dies between a launch's insert and its enqueue.
   */
  async resendWaiting(olderThanMs: number): Promise<void> {
    const { db } = this.deps;
    const before = new Date(this.deps.now().getTime() - olderThanMs).toISOString();
    const waiting = await waitingServerRuns(db).where('created_at', '<=', before).orderBy('created_at').limit(RESEND_AT_MOST).execute();
    await this.deps.queue.resend(waiting.map(queuedRun));
  }

  /**
   * `queueSurvivesProcess`: the queue is pg-boss in the database, shared by every process, rather than
   * this process's memory. Then only runs waiting for longer than resendWaitingAfterMs (a minute) are
   * sent again, at start and every half minute; else every waiting run is queued again at start.
   */
  async start({ queueSurvivesProcess }: { queueSurvivesProcess: boolean }): Promise<void> {
    const { resendWaitingAfterMs } = this.deps.options;
    const freed = await this.recover();
    // The queue first: pg-boss inserts nothing before it has started (a restarted process failed to boot on it).
    await this.deps.queue.start(this.executor.execute);
    for (const groupId of freed) await this.offerFirmSlot(groupId);
    await this.resendWaiting(queueSurvivesProcess ? resendWaitingAfterMs : 0);
    // Another process or a machine may die while this one lives: its runs are closed soon after their claim runs out.
    this.sweepTimer = setInterval(() => {
      void (async () => {
        for (const groupId of await this.recover()) await this.offerFirmSlot(groupId);
      })().catch((error: unknown) => this.deps.log.warn({ err: error }, 'No se han podido cerrar ejecuciones abandonadas'));
    }, Math.min(this.deps.options.leaseMs, SWEEP_MAX_MS));
    this.sweepTimer.unref();
    if (queueSurvivesProcess) {
      this.resendTimer = setInterval(() => {
        this.resendWaiting(resendWaitingAfterMs).catch((error: unknown) => this.deps.log.warn({ err: error }, 'No se han podido volver a encolar ejecuciones en espera'));
      }, Math.min(RESEND_EVERY_MS, resendWaitingAfterMs));
      this.resendTimer.unref();
    }
  }

  /** Takes no more runs, ends the ones running here (FlowAborted, not charged) and closes the queue. */
  async shutdown(): Promise<void> {
    this.executor.stopTaking();
    clearInterval(this.sweepTimer);
    clearInterval(this.resendTimer);
    await this.deps.queue.pause();
    await this.executor.endAll();
    await this.deps.queue.close();
  }
}
