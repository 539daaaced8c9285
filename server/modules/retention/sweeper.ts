import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileStorage } from '../storage/service.ts';
import { sweepOrphans } from './orphans.ts';
import { retentionCutoff } from './retention.ts';
import { RepeatingPass } from '../../timers/repeating-pass.ts';

interface SweeperLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface FileSweeperOptions {
  db: Kysely<Database>;
  storage: Pick<FileStorage, 'remove' | 'root'>;
  now: () => Date;
  /** FILE_RETENTION_DAYS: files stored longer ago than this are deleted. */
  retentionDays: number;
  log: SweeperLog;
  /** Files one statement takes at most; a sweep goes on in batches up to maxBatches. */
  batchSize?: number;
  maxBatches?: number;
  /** Orphans (files no row names) younger than this are kept (orphans.ts ORPHAN_GRACE_MS by default). */
  orphanGraceMs?: number;
  /** The files' clock for the orphans' age (the system's: file times are not the app's clock). */
  wallClock?: () => number;
}

export interface SweepResult {
  /** Outputs whose file was deleted (their rows stay, marked expired). */
  outputs: number;
  /** Uploads deleted, rows and files. */
  uploads: number;
  /** Files in the storage folder that no row named, past the grace period, removed. */
  orphans: number;
}

/** The first sweep after start comes this soon (or after one interval, if shorter). */
const FIRST_SWEEP_MS = 60_000;

/**
 * Deletes uploads and run outputs past their retention (modules/retention/retention.ts), from any
 * number of server processes sharing one database and one storage folder:
 * - each batch is one guarded statement (an output's UPDATE sets expired_at only where it is still
 *   null; an upload's DELETE takes rows that are still there) returning the files it took, so two
 *   processes sweeping at once never take the same file twice; the files are removed after it;
 * - an output's row stays, marked expired, so the history still names it and says it is gone;
 * - an upload still named by a queued or running run's inputs, or by a schedule's (for as long as the
 *   schedule exists), is kept whatever its age.
 * A process that dies between a statement and the removal leaves that batch's files on disk; they, and
 * any file no row names (a process killed between writing a file and indexing it), are removed by the
 * orphan pass once older than its grace period (orphans.ts).
 */
export class FileSweeper {
  private readonly repeating: RepeatingPass;

  constructor(private readonly options: FileSweeperOptions) {
    this.repeating = new RepeatingPass(() => this.sweep(), (error) => options.log.error({ err: error }, 'No se han podido borrar los archivos caducados'));
  }

  /** Sweeps soon after start, then every `intervalMs` (the timers never keep the process alive). */
  start(intervalMs: number): void {
    this.repeating.start(intervalMs, Math.min(FIRST_SWEEP_MS, intervalMs));
  }

  /** Stops the timers and waits for a sweep under way. */
  async stop(): Promise<void> {
    await this.repeating.stop();
  }

  /** One sweep: every output and upload past its retention, in batches, then the orphans. */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { outputs: 0, uploads: 0, orphans: 0 };
    const batchSize = this.options.batchSize ?? 500;
    const maxBatches = this.options.maxBatches ?? 20;
    for (const [kind, take] of [['outputs', () => this.expireOutputs(batchSize)], ['uploads', () => this.deleteUploads(batchSize)]] as const) {
      for (let batch = 0; batch < maxBatches; batch += 1) {
        const keys = await take();
        result[kind] += keys.length;
        await this.removeFiles(keys);
        if (keys.length < batchSize) break;
      }
    }
    const { db, storage, orphanGraceMs, wallClock } = this.options;
    result.orphans = await sweepOrphans({ db, root: storage.root, remove: (keys) => storage.remove(keys), ...(orphanGraceMs !== undefined && { graceMs: orphanGraceMs }), ...(wallClock && { wallClock }) });
    if (result.outputs + result.uploads + result.orphans > 0) this.options.log.info({ ...result }, 'Archivos caducados borrados');
    return result;
  }

  /** Marks a batch of due outputs expired; answers the storage keys this statement took. */
  private async expireOutputs(batchSize: number): Promise<string[]> {
    const { db, now, retentionDays } = this.options;
    const at = now();
    const due = db
      .selectFrom('stored_files')
      .select('id')
      .where('kind', '=', 'output')
      .where('expired_at', 'is', null)
      .where('created_at', '<=', retentionCutoff(at, retentionDays))
      .orderBy('created_at')
      .limit(batchSize);
    const rows = await db
      .updateTable('stored_files')
      .set({ expired_at: at.toISOString() })
      .where('id', 'in', due)
      // The guard: a row another process expired meanwhile is not taken again.
      .where('expired_at', 'is', null)
      .returning('storage_key')
      .execute();
    return rows.map((row) => row.storage_key);
  }

  /** Deletes a batch of due uploads no unfinished run or schedule names; answers their storage keys. */
  private async deleteUploads(batchSize: number): Promise<string[]> {
    const { db, now, retentionDays } = this.options;
    // Inputs are stored as JSON naming uploads by id (a UUID: nothing LIKE would read as a wildcard).
    const namesFile = sql<string>`'%' || ${sql.ref('f.id')} || '%'`;
    const due = db
      .selectFrom('stored_files as f')
      .select('f.id')
      .where('f.kind', '=', 'upload')
      .where('f.created_at', '<=', retentionCutoff(now(), retentionDays))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('flow_runs as r').select('r.id').whereRef('r.group_id', '=', 'f.group_id').where('r.state', 'in', ['queued', 'running']).where('r.inputs', 'like', namesFile))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('flow_schedules as s').select('s.id').whereRef('s.group_id', '=', 'f.group_id').where('s.flow_inputs', 'like', namesFile))),
      )
      .orderBy('f.created_at')
      .limit(batchSize);
    const rows = await db.deleteFrom('stored_files').where('id', 'in', due).where('kind', '=', 'upload').returning('storage_key').execute();
    return rows.map((row) => row.storage_key);
  }

  private async removeFiles(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.options.storage.remove(keys);
    } catch (error) {
      this.options.log.error({ err: error, files: keys.length }, 'No se han podido borrar del disco algunos archivos caducados');
    }
  }
}
