import type { Kysely } from 'kysely';
import { LEASE_LOST_MESSAGE, RUN_FILE_NOT_FOUND_MESSAGE, type DeviceRunReport, type DeviceRunReportAnswer, type LeasedRun } from '#shared/api/devices.ts';
import { fileInputValueSchema } from '#shared/api/flows.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { FlowDirectory } from '../flows/directory.ts';
import { failed } from '../runs/closing.ts';
import { LOG_LIMIT_NOTICE, MAX_LOG_LINES } from '../runs/log-writer.ts';
import { flowInputs } from '../runs/inputs.ts';
import { RUN_NOT_FOUND_MESSAGE } from '../runs/run-state.ts';
import type { RunService } from '../runs/service.ts';
import { findGroupUpload, type FileStorage, type StoredFile } from '../storage/service.ts';
import type { DeviceCaller } from './auth.ts';
import { machineLeaseOwner } from './machine-runs.ts';
import { closingForDevice, type DeviceRunOutcome } from './outcome.ts';

export const RUN_STARTED_MESSAGE = 'Esta ejecución ya se ha iniciado';
const FLOW_GONE_MESSAGE = 'Este robot ya no forma parte de nuestra familia';

/** A long poll looks at the database this often, for runs queued by another server process. */
const RECHECK_MS = 500;

export interface DeviceRunsDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** A run's flow: built-in, or the macro version it was launched with (FlowDirectory.ofRun). */
  flows: Pick<FlowDirectory, 'ofRun'>;
  runs: RunService;
  /** Where the uploads of FileUpload inputs are kept (the machine downloads them before its robot starts). */
  storage: FileStorage;
  /** How long a machine's lease holds without a report (RunsOptions.leaseMs). */
  leaseMs: number;
}

function leaseLost(): HttpError {
  return new HttpError(409, 'LEASE_LOST', LEASE_LOST_MESSAGE);
}

function runNotFound(): HttpError {
  return new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
}

function runFileNotFound(): HttpError {
  return new HttpError(404, 'RUN_FILE_NOT_FOUND', RUN_FILE_NOT_FOUND_MESSAGE);
}

/** The keys of a flow's FileUpload inputs. */
function fileInputKeys(definition: FlowDefinition): string[] {
  return flowInputs(definition).filter((input) => input.template === 'FileUpload').map((input) => input.key);
}

/** One upload a run's robot gets, with where its bytes are. */
export interface RunFile {
  file: Pick<StoredFile, 'name' | 'size' | 'content_type'>;
  path: string;
}

/**
 * The device side of machine runs (shared/api/devices.ts): a machine waits for its queued runs,
 * leases one at a time with one guarded UPDATE (queued -> running under 'machine:<id>'), so a run is
 * never leased twice; its reports add log lines and progress and renew the lease; its finish closes
 * the run once through RunService.closeRun, charged once. A lease that runs out is closed by
 * RunService.recover as 299 (LEASE_LOST_MESSAGE), and then the machine's reports and finish get 409.
 */
export class DeviceRunService {
  private readonly waking = new Set<() => void>();
  private closed = false;

  constructor(private readonly deps: DeviceRunsDeps) {}

  /**
   * The machine's next queued run, leased to it; waits up to `waitSeconds` for one (woken at once by
   * a launch in this process, otherwise within RECHECK_MS). Null when none came, or when `signal`
   * says the caller has gone (so no run is leased to a closed connection).
   */
  async next(caller: DeviceCaller, waitSeconds: number, signal?: AbortSignal): Promise<LeasedRun | null> {
    const deadline = Date.now() + waitSeconds * 1000;
    let queued = false;
    let wake: (() => void) | null = null;
    const onQueued = () => {
      queued = true;
      wake?.();
    };
    const unsubscribe = this.deps.runs.onMachineRunQueued(caller.machineId, onQueued);
    signal?.addEventListener('abort', onQueued);
    try {
      for (;;) {
        if (this.closed || signal?.aborted === true) return null;
        queued = false;
        const leased = await this.leaseNext(caller);
        if (leased) return leased;
        const remaining = deadline - Date.now();
        if (remaining <= 0) return null;
        if (queued) continue;
        await this.pause(Math.min(RECHECK_MS, remaining), (done) => (wake = done));
        wake = null;
      }
    } finally {
      unsubscribe();
      signal?.removeEventListener('abort', onQueued);
    }
  }

  /** LaunchFlow on the machine itself: leases this run now. 409 when it has already started (or ended). */
  async claim(caller: DeviceCaller, executionToken: string): Promise<LeasedRun> {
    const run = await this.deps.db
      .selectFrom('flow_runs')
      .select(['id', 'flow_id', 'inputs', 'state'])
      .where('execution_token', '=', executionToken)
      .where('group_id', '=', caller.groupId)
      .where('machine_id', '=', caller.machineId)
      .executeTakeFirst();
    if (!run) throw runNotFound();
    const leased = run.state === 'queued' ? await this.lease(caller, run) : null;
    if (!leased) throw new HttpError(409, 'RUN_STARTED', RUN_STARTED_MESSAGE);
    return leased;
  }

  /** New lines and progress of a run this machine holds; renews its lease and says whether the user asked to stop. */
  async report(caller: DeviceCaller, runId: string, report: DeviceRunReport): Promise<DeviceRunReportAnswer> {
    await this.ownRun(caller, runId);
    const now = this.deps.now();
    const leaseUntil = new Date(now.getTime() + this.deps.leaseMs).toISOString();
    const stop = await this.deps.db.transaction().execute(async (trx) => {
      // The UPDATE comes first: it holds the run's row (PostgreSQL), so reports of one run never interleave their lines.
      const renewed = await trx
        .updateTable('flow_runs')
        .set({ lease_until: leaseUntil, successful_iterations: report.successfulIterations, total_iterations: report.totalIterations })
        .where('id', '=', runId)
        .where('state', '=', 'running')
        .where('lease_owner', '=', machineLeaseOwner(caller.machineId))
        .where('lease_until', '>=', now.toISOString())
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) === 0) throw leaseLost();
      const last = await trx.selectFrom('flow_run_logs').select((eb) => eb.fn.max('seq').as('last')).where('run_id', '=', runId).executeTakeFirst();
      const seq = last?.last === null || last?.last === undefined ? 0 : Number(last.last) + 1;
      const room = Math.max(0, MAX_LOG_LINES - seq);
      const lines = report.lines.length > room ? [...report.lines.slice(0, room), { level: 'warn' as const, text: LOG_LIMIT_NOTICE }] : report.lines;
      if (seq <= MAX_LOG_LINES && lines.length > 0) {
        await trx
          .insertInto('flow_run_logs')
          .values(lines.map((line, index) => ({ run_id: runId, seq: seq + index, level: line.level, text: line.text, created_at: now.toISOString() })))
          .execute();
      }
      const row = await trx.selectFrom('flow_runs').select('stopped_by_user').where('id', '=', runId).executeTakeFirstOrThrow();
      return Number(row.stopped_by_user) === 1;
    });
    this.deps.runs.emitChange(runId);
    return { stop, leaseUntil };
  }

  /**
   * Ends a run this machine holds, once (its outputs, ledger row and usage in one transaction).
   * False when it was closed already (lease lost, stopped while queued): nothing written or charged.
   */
  async finish(caller: DeviceCaller, runId: string, outcome: DeviceRunOutcome, files?: readonly Buffer[]): Promise<boolean> {
    const run = await this.ownRun(caller, runId);
    const timeLimitSeconds = this.deps.flows.ofRun(run)?.definition.timeLimitSeconds ?? 0;
    const { closing, desktop } = closingForDevice(outcome, timeLimitSeconds, Number(run.send_output_to_server) === 1, files);
    return this.deps.runs.closeRun(runId, closing, { leaseOwner: machineLeaseOwner(caller.machineId) }, desktop);
  }

  /**
   * One upload named by a FileUpload input of a run this machine holds now (its robot gets the bytes).
   * 404: another machine's run, one not leased yet, or an upload its inputs do not name (even the
   * firm's own); 409: the lease was lost (the run is closed, or about to be).
   */
  async runFile(caller: DeviceCaller, runId: string, uploadId: string): Promise<RunFile> {
    const run = await this.deps.db
      .selectFrom('flow_runs')
      .select(['flow_id', 'state', 'lease_owner', 'lease_until', 'inputs'])
      .where('id', '=', runId)
      .where('group_id', '=', caller.groupId)
      .where('machine_id', '=', caller.machineId)
      .executeTakeFirst();
    if (!run || run.state === 'queued') throw runNotFound();
    const held = run.state === 'running' && run.lease_owner === machineLeaseOwner(caller.machineId) && (run.lease_until ?? '') >= this.deps.now().toISOString();
    if (!held) throw leaseLost();
    const definition = this.deps.flows.ofRun(run)?.definition;
    const inputs = JSON.parse(run.inputs) as Record<string, unknown>;
    const named = (definition ? fileInputKeys(definition) : []).some((key) => fileInputValueSchema.safeParse(inputs[key]).data?.some((file) => file.uploadId === uploadId) === true);
    if (!named) throw runFileNotFound();
    const upload = await findGroupUpload(this.deps.db, caller.groupId, uploadId);
    if (!upload) throw runFileNotFound();
    return { file: upload, path: this.deps.storage.pathOf(upload.storage_key) };
  }

  /** Waits `ms`, or less when the function handed to `expose` (or shutdown) is called. */
  private async pause(ms: number, expose: (done: () => void) => void): Promise<void> {
    let done = () => undefined as void;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      done = () => {
        clearTimeout(timer);
        resolve();
      };
      expose(done);
      this.waking.add(done);
    });
    this.waking.delete(done);
  }

  /** Pending long polls answer at once (nothing leased): the server is closing. */
  shutdown(): void {
    this.closed = true;
    for (const wake of this.waking) wake();
  }

  private async ownRun(caller: DeviceCaller, runId: string) {
    const run = await this.deps.db
      .selectFrom('flow_runs')
      .select(['id', 'flow_id', 'inputs', 'send_output_to_server'])
      .where('id', '=', runId)
      .where('group_id', '=', caller.groupId)
      .where('machine_id', '=', caller.machineId)
      .executeTakeFirst();
    if (!run) throw runNotFound();
    return run;
  }

  /** The oldest run waiting for this machine, leased; null when none is (another poll may win a race: try the next). */
  private async leaseNext(caller: DeviceCaller): Promise<LeasedRun | null> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const run = await this.deps.db
        .selectFrom('flow_runs')
        .select(['id', 'flow_id', 'inputs'])
        .where('machine_id', '=', caller.machineId)
        .where('state', '=', 'queued')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!run) return null;
      const leased = await this.lease(caller, run);
      if (leased) return leased;
    }
    return null;
  }

  /** queued -> running under this machine's lease, in one guarded UPDATE; null when the run was not queued any more. */
  private async lease(caller: DeviceCaller, run: { id: string; flow_id: string; inputs: string }): Promise<LeasedRun | null> {
    const { db, runs, flows, leaseMs } = this.deps;
    const flow = flows.ofRun(run);
    if (!flow) {
      await runs.closeRun(run.id, failed(500, FLOW_GONE_MESSAGE, FLOW_GONE_MESSAGE), 'queued');
      return null;
    }
    const startedAt = this.deps.now();
    const leased = await db
      .updateTable('flow_runs')
      .set({ state: 'running', started_at: startedAt.toISOString(), lease_owner: machineLeaseOwner(caller.machineId), lease_until: new Date(startedAt.getTime() + leaseMs).toISOString() })
      .where('id', '=', run.id)
      .where('state', '=', 'queued')
      .where('machine_id', '=', caller.machineId)
      .executeTakeFirst();
    if (Number(leased.numUpdatedRows) === 0) return null;
    runs.emitChange(run.id);
    const row = await db.selectFrom('flow_runs').select(['execution_token', 'flow_name', 'inputs', 'remote', 'send_output_to_server', 'schedule_id']).where('id', '=', run.id).executeTakeFirstOrThrow();
    // A schedule's local process (the FIE fetch and A3 sync) runs on the desktop instead of the flow's robot;
    // a flow that stands for one (no robot at all) carries it whether it was scheduled or launched now.
    const schedule = row.schedule_id === null ? undefined : await db.selectFrom('flow_schedules').select('local_process').where('id', '=', row.schedule_id).executeTakeFirst();
    const localProcess = schedule?.local_process ?? flow.definition.localProcess ?? null;
    return {
      runId: run.id,
      executionToken: row.execution_token,
      flowId: run.flow_id,
      flowName: row.flow_name,
      inputs: JSON.parse(row.inputs) as Record<string, unknown>,
      timeLimitSeconds: flow.definition.timeLimitSeconds,
      remote: Number(row.remote) === 1,
      sendOutputToServer: Number(row.send_output_to_server) === 1,
      leaseMs,
      startedAt: startedAt.toISOString(),
      fileInputs: fileInputKeys(flow.definition),
      ...(localProcess === null ? {} : { localProcess }),
    };
  }
}
