import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import type { Database } from '../../db/schema.ts';
import type { FlowCatalogue } from '../flows/catalogue.ts';
import { findGroupUpload, type FileStorage } from '../storage/service.ts';
import type { RunChanges } from './changes.ts';
import { closingFor, failed, type CloseGuard, type Closing } from './closing.ts';
import { flowInputs } from './inputs.ts';
import { RunLogWriter } from './log-writer.ts';
import type { RunsOptions } from './options.ts';
import type { QueuedRun, RunQueue } from './queue.ts';
import { firmRunning, lockFirm } from './reservations.ts';
import { startRunProcess, type RunningRobot } from './run-child.ts';
import { stagingFolderOf } from '../storage/staged-outputs.ts';
import type { RunProcessJob } from './run-protocol.ts';
import { findRunById, type RunRow } from './run-state.ts';

/** How often a running run checks for a stop asked through another server process. */
const STOP_CHECK_MS = 1_000;

interface ActiveRun {
  worker: RunningRobot | null;
  stopReason: 'user' | 'shutdown';
  /** Set when a stop arrives before the worker exists. */
  stopRequested: boolean;
}

export interface RunExecutorDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The built-in flows: a firm's macros are desktop flows (flows/directory.ts), never run here. */
  catalogue: FlowCatalogue;
  storage: FileStorage;
  queue: RunQueue;
  options: RunsOptions;
  log: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
  changes: RunChanges;
  /** Ends a run once and wakes whoever waits on it (RunService.closeRun). */
  closeRun(runId: string, closing: Closing, guard: CloseGuard): Promise<boolean>;
  /** A run of the firm stopped executing: its earliest waiting runs get jobs again (RunService.offerFirmSlot). */
  offerFirmSlot(groupId: string): Promise<void>;
}

/**
 * Executing the server's runs in this process: the queue hands a run over, it is claimed (queued ->
 * running under this process's lease, within its firm's limit of runs executing), its robot runs in a
 * child process whose log lines are written as they come, the lease is renewed and stops asked
 * through another process are heard; then the run is closed with what the robot returned.
 */
export class RunExecutor {
  /** This process, as lease_owner of the runs it executes. */
  readonly processId = randomUUID();
  private readonly active = new Map<string, ActiveRun>();
  private readonly executing = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly deps: RunExecutorDeps) {}

  /** Whether the server is stopping: runs the queue hands over go back to it. */
  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Called by the queue: claims the run and executes it; a run already claimed or finished is left alone. */
  execute = (queued: QueuedRun): Promise<void> => {
    const execution = this.executeClaimed(queued).catch((error: unknown) => this.deps.log.error({ err: error, runId: queued.runId }, 'Error al ejecutar un robot'));
    this.executing.add(execution);
    return execution.finally(() => this.executing.delete(execution));
  };

  /** The user's stop of a run, if it executes here (another process hears it from the database). */
  stopIfHere(runId: string): void {
    const local = this.active.get(runId);
    if (local) {
      local.stopRequested = true;
      local.worker?.stop();
    }
  }

  /** From now on, runs the queue hands this process go back to it, for another process or the next start. */
  stopTaking(): void {
    this.stopping = true;
  }

  /** Ends the runs executing here (FlowAborted, not charged) and resolves once each is closed. */
  async endAll(): Promise<void> {
    for (const run of this.active.values()) {
      run.stopReason = 'shutdown';
      run.stopRequested = true;
      run.worker?.stop();
    }
    await Promise.allSettled([...this.executing]);
  }

  private async executeClaimed(job: QueuedRun): Promise<void> {
    // A job queued before firms had ranks carries its run id alone.
    const queued = job.groupId ? job : { ...job, groupId: (await findRunById(this.deps.db, job.runId)).group_id, rank: 0 };
    // Fetched as the server stops: handed back, so another process (or the next start) runs it.
    if (this.stopping) return this.deps.queue.enqueue(queued);
    const claim = await this.claim(queued);
    // The job is dropped, the run stays queued: when one of the firm's runs stops executing, its
    // earliest waiting runs are sent again (offerFirmSlot), so it is next at once rather than after a
    // delay during which runs behind it take the free slots.
    if (claim === 'firm-busy') return;
    if (claim === 'gone') return;
    const { runId, startedAt } = claim;
    // This job's own run still waits behind the one taken: it keeps a job of its own.
    if (runId !== queued.runId) await this.deps.queue.enqueue(queued);

    const activeRun: ActiveRun = { worker: null, stopReason: 'user', stopRequested: false };
    this.active.set(runId, activeRun);
    this.deps.changes.runChanged(runId);
    let closing: Closing;
    try {
      closing = await this.runWorker(await findRunById(this.deps.db, runId), startedAt, activeRun);
    } catch (error) {
      closing = failed(500, 'El robot no se ha lanzado correctamente', `No se ha podido lanzar el robot: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.active.delete(runId);
    }
    await this.deps.closeRun(runId, closing, 'unfinished');
    // Before this slot fetches its next job, so the firm's next run is among what it can fetch.
    await this.deps.offerFirmSlot(queued.groupId);
  }

  /**
   * Takes a queued server run of the job's firm for this process (queued -> running, with a lease):
   * the firm's earliest waiting run, which is the job's own unless an earlier one still waits, so a
   * firm's runs start in launch order even when several slots fetch its jobs at once (pg-boss
   * workers), and a run whose job was lost (a crash between its launch and its enqueue) is taken by
   * the next job of its firm. 'firm-busy' when the firm already has its limit of runs executing (on
   * any process): the job is dropped and the run waits for offerFirmSlot. 'gone' when the job's run no longer waits.
   */
  private async claim(queued: QueuedRun): Promise<{ runId: string; startedAt: Date } | 'gone' | 'firm-busy'> {
    const { db, options } = this.deps;
    return db.transaction().execute(async (trx) => {
      await lockFirm(trx, queued.groupId);
      const own = await trx.selectFrom('flow_runs').select('id').where('id', '=', queued.runId).where('state', '=', 'queued').where('machine_name', 'is', null).executeTakeFirst();
      if (!own) return 'gone';
      if ((await firmRunning(trx, queued.groupId)) >= options.runningPerFirm) return 'firm-busy';
      const earliest = await trx
        .selectFrom('flow_runs')
        .select('id')
        .where('group_id', '=', queued.groupId)
        .where('state', '=', 'queued')
        .where('machine_name', 'is', null)
        .orderBy('queue_rank')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirstOrThrow();
      const startedAt = this.deps.now();
      const claimed = await trx
        .updateTable('flow_runs')
        .set({ state: 'running', started_at: startedAt.toISOString(), lease_owner: this.processId, lease_until: new Date(startedAt.getTime() + options.leaseMs).toISOString() })
        .where('id', '=', earliest.id)
        .where('state', '=', 'queued')
        // A machine's run is only ever leased by that machine.
        .where('machine_name', 'is', null)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 0 ? 'gone' : { runId: earliest.id, startedAt };
    });
  }

  private async runWorker(run: RunRow, startedAt: Date, activeRun: ActiveRun): Promise<Closing> {
    const { db, options, catalogue, changes } = this.deps;
    const flow = catalogue.get(run.flow_id);
    if (!flow) return failed(500, 'Este robot ya no forma parte de nuestra familia', 'Este robot ya no forma parte de nuestra familia');
    const job = await this.processJob(run, flow.definition, startedAt);

    const firstSeq = await db.selectFrom('flow_run_logs').select((eb) => eb.fn.max('seq').as('last')).where('run_id', '=', run.id).executeTakeFirst();
    const writer = new RunLogWriter(db, run.id, firstSeq?.last === null || firstSeq?.last === undefined ? 0 : Number(firstSeq.last) + 1, this.deps.now, () => changes.runChanged(run.id), (error) =>
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
  private async processJob(run: RunRow, definition: FlowDefinition, startedAt: Date): Promise<RunProcessJob> {
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
    return {
      flowId: run.flow_id,
      flowsModule: this.deps.options.flowsModule,
      inputs,
      files,
      startedAt: startedAt.toISOString(),
      outputFolder: stagingFolderOf(this.deps.storage.root, run.id),
    };
  }
}
