import { fork, type ChildProcess } from 'node:child_process';
import type { Kysely } from 'kysely';
import { childCommand } from '../child-command.ts';
import { writeOutputs } from '../modules/runs/closing.ts';
import { insertStoredFiles, type FileStorage, type NewStoredFile } from '../modules/storage/service.ts';
import type { DemoFlowId, DemoJob, DemoJobDone } from './demo-input.ts';
import type { Database } from './schema.ts';

/**
 * The files of the demo account's successful runs, made by the robots themselves: each run's input is
 * generated (a workers' workbook, an 'Altas' list, a FIE from SILTRA, of the run's size and dates) and
 * its robot runs on it, in a process of its own (demo-process.ts). The robot's log, figures, summary
 * and outputs then replace the run's placeholders, so what the demo's history shows is what the robots
 * really produced. It happens in the background after the first start: the robots take a few seconds
 * in all, which the start itself should not wait for.
 */

/** A seeded run whose robot is still to run (server/db/demo-runs.ts lists them). */
export interface DemoRobotRun {
  runId: string;
  groupId: string;
  userId: string;
  flowId: DemoFlowId;
  /** Rows or FIE entries of the generated input. */
  items: number;
  startedAt: Date;
  finishedAt: Date;
  /** The units the seed charged: the robot must count the same. */
  usageUnits: number;
}

export interface DemoFilesOptions {
  db: Kysely<Database>;
  storage: FileStorage;
  /** Where a run that did not turn out as seeded is reported (never expected: a test runs every one). */
  warn(message: string): void;
}

/** Starts the demo's robots at once; `stop` ends them (the runs not done yet keep no files). */
export class DemoFiles {
  private readonly child: ChildProcess;
  private stopped = false;
  /** Settles when every run is filled in, or the process ended or was stopped. */
  readonly done: Promise<void>;

  constructor(
    private readonly options: DemoFilesOptions,
    runs: readonly DemoRobotRun[],
  ) {
    const byId = new Map(runs.map((run) => [run.runId, run]));
    const { entry, execArgv } = childCommand('demo-process', 512, import.meta.url);
    this.child = fork(entry, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let writing = Promise.resolve();
    this.child.on('message', (message: DemoJobDone) => {
      const run = byId.get(message.runId);
      if (!run) return;
      byId.delete(message.runId);
      // One run at a time, in the order they come: each is its own transaction.
      writing = writing.then(() => this.record(run, message)).catch((error: unknown) => this.warnAbout(run, (error as Error).message));
    });
    this.child.on('error', (error) => this.options.warn(`Cuenta de demostración: no se ha podido iniciar el proceso de sus robots: ${error.message}`));
    this.done = new Promise<void>((resolve) => this.child.once('close', () => resolve())).then(async () => {
      await writing;
      if (!this.stopped && byId.size > 0) this.options.warn(`Cuenta de demostración: ${byId.size} ejecuciones se han quedado sin archivos.`);
    });
    const jobs: DemoJob[] = runs.map((run) => ({ runId: run.runId, flowId: run.flowId, items: run.items, startedAt: run.startedAt.toISOString() }));
    this.child.send(jobs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.done;
  }

  private warnAbout(run: DemoRobotRun, problem: string): void {
    this.options.warn(`Cuenta de demostración: la ejecución ${run.runId} (${run.flowId}) se ha quedado sin archivos: ${problem}`);
  }

  /** The robot's input, outputs, lines and figures in place of the run's placeholders. */
  private async record(run: DemoRobotRun, done: DemoJobDone): Promise<void> {
    if ('failure' in done) return this.warnAbout(run, done.failure);
    const { input, lines, progress, result } = done;
    if (result.result !== 'Success' || result.usageUnits !== run.usageUnits) {
      this.options.warn(`Cuenta de demostración: ${run.flowId} ha dado ${result.result} con ${result.usageUnits} unidades; se esperaba Success con ${run.usageUnits}.`);
    }
    const { db, storage } = this.options;
    const upload = storage.newKey(run.groupId);
    await storage.write(upload.storageKey, input.data);
    const uploaded: NewStoredFile = { id: upload.id, storageKey: upload.storageKey, name: input.name, size: input.data.byteLength };
    const outputs = await writeOutputs(storage, run.groupId, result.outputs);
    // The lines spread over the run's time, a second apart at most.
    const step = Math.min(1_000, (run.finishedAt.getTime() - run.startedAt.getTime()) / Math.max(1, lines.length));
    try {
      await db.transaction().execute(async (trx) => {
        await insertStoredFiles(trx, { groupId: run.groupId, userId: run.userId, kind: 'upload', runId: null }, [uploaded], run.startedAt);
        await insertStoredFiles(trx, { groupId: run.groupId, userId: run.userId, kind: 'output', runId: run.runId }, outputs, run.finishedAt);
        if (lines.length > 0) {
          const rows = lines.map((line, seq) => ({ run_id: run.runId, seq, level: line.level, text: line.text, created_at: new Date(run.startedAt.getTime() + seq * step).toISOString() }));
          await trx.insertInto('flow_run_logs').values(rows).execute();
        }
        await trx
          .updateTable('flow_runs')
          .set({
            inputs: JSON.stringify({ [input.key]: [{ uploadId: upload.id, name: input.name }] }),
            successful_iterations: progress.successful,
            total_iterations: progress.total,
            summary: result.summary === undefined ? null : JSON.stringify(result.summary),
          })
          .where('id', '=', run.runId)
          .execute();
      });
    } catch (error) {
      await storage.remove([upload.storageKey, ...outputs.map((file) => file.storageKey)]);
      throw error;
    }
  }
}
