import Database from 'better-sqlite3';
import type { AutopilotAppId, AutopilotCertificate } from '#shared/autopilot/state.ts';
import { startOfMadridDay } from '#shared/time/madrid.ts';
import { MIGRATIONS, columnsOf, sameContent, taskFromRow, type TaskRow } from './task-rows.ts';
import type { CachedTask, IncomingTask } from './task.ts';

export type { CachedTask, IncomingTask } from './task.ts';

/**
 * The autopilot's memory on this PC (autopilot.sqlite in the host's folder): the tasks pulled from the
 * server or made by the apps, each with its run state, the apps' switches and certificates, and the
 * general switch. It is shared by every process on the machine that opens the file (WAL, so readers
 * never wait for the writer), and every change is one statement or a short IMMEDIATE transaction.
 *
 * A task is claimed before it runs: at most one live claim exists in the whole file, so a second
 * loop (another process, a restarted one) never starts a second task, nor the same task twice. A
 * claim carries its owner (`${pid}:${uuid}`) and a lease the owner renews while it follows the run.
 */

export interface AppSettings {
  enabled: boolean;
  certificates: AutopilotCertificate[];
}

export const CACHE_FILE_NAME = 'autopilot.sqlite';
const SCHEMA_VERSION = 1;
const BUSY_TIMEOUT_MS = 5000;

export const NEWER_CACHE_MESSAGE = 'La memoria del piloto automático es de una versión más nueva de AutoAsesor: actualiza la aplicación.';

/**
 * Out of the box the general switch and 'Robots para asesorías' are on: schedules of desktop flows
 * on this machine are launched only by its autopilot, so a fresh install must not sit on them.
 */
const DEFAULT_APP_ENABLED: Record<AutopilotAppId, boolean> = { robots: true, altas: false, notificaciones: false };
const GENERAL_SWITCH_KEY = 'general-switch';

const iso = (date: string | Date): string => new Date(date).toISOString();

export class TaskCache {
  private readonly db: Database.Database;

  private constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a power cut may lose the last commits, never the file's consistency.
    this.db.pragma('synchronous = NORMAL');
    this.migrate();
  }

  static open(file: string): TaskCache {
    return new TaskCache(file);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** 'ok' when SQLite finds the file sound (PRAGMA integrity_check), else its first complaint. */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  // -------------------------------------------------------------------------------------------------
  // Switches and certificates

  generalSwitch(): boolean {
    const row = this.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(GENERAL_SWITCH_KEY);
    return row === undefined ? true : row.value === 'on';
  }

  setGeneralSwitch(on: boolean): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(GENERAL_SWITCH_KEY, on ? 'on' : 'off');
  }

  appSettings(app: AutopilotAppId): AppSettings {
    const row = this.db.prepare<[string], { enabled: number; certificates: string }>('SELECT enabled, certificates FROM apps WHERE id = ?').get(app);
    if (row === undefined) return { enabled: DEFAULT_APP_ENABLED[app], certificates: [] };
    return { enabled: row.enabled === 1, certificates: JSON.parse(row.certificates) as AutopilotCertificate[] };
  }

  setAppEnabled(app: AutopilotAppId, enabled: boolean): void {
    this.db
      .prepare('INSERT INTO apps (id, enabled) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled')
      .run(app, enabled ? 1 : 0);
  }

  setCertificates(app: AutopilotAppId, certificates: AutopilotCertificate[]): void {
    this.db
      .prepare('INSERT INTO apps (id, enabled, certificates) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET certificates = excluded.certificates')
      .run(app, DEFAULT_APP_ENABLED[app] ? 1 : 0, JSON.stringify(certificates));
  }

  // -------------------------------------------------------------------------------------------------
  // Tasks

  /** Every task, soonest first. */
  tasks(): CachedTask[] {
    return this.db.prepare<[], TaskRow>('SELECT * FROM tasks ORDER BY scheduled_date, id').all().map(taskFromRow);
  }

  task(id: string): CachedTask | undefined {
    const row = this.db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?').get(id);
    return row && taskFromRow(row);
  }

  /**
   * An app's tasks as its load found them (the robots app: this machine's schedules on the server).
   * New ones come in; a date changed there is taken (the task runs again at it); one gone from there
   * is dropped. A task a live claim holds is left as it is (its loop settles it), and so is one being
   * removed; a done one stays until its day ends, unless its date changed. Answers whether anything changed.
   */
  syncApp(app: AutopilotAppId, incoming: readonly IncomingTask[], now: Date): boolean {
    const nowMs = now.getTime();
    const stamp = now.toISOString();
    const sync = this.db.transaction((): boolean => {
      const existing = new Map(
        this.db
          .prepare<[string], TaskRow>('SELECT * FROM tasks WHERE app = ?')
          .all(app)
          .map((row) => [row.id, taskFromRow(row)]),
      );
      let changed = false;
      for (const task of incoming) {
        const scheduledDate = iso(task.scheduledDate);
        const known = existing.get(task.id);
        existing.delete(task.id);
        if (known === undefined) {
          this.insert(app, { ...task, scheduledDate }, stamp);
          changed = true;
          continue;
        }
        if (isLiveClaim(known, nowMs) || known.removing) continue;
        const dateChanged = known.scheduledDate !== scheduledDate;
        if (known.done && !dateChanged) continue;
        if (!dateChanged && sameContent(known, task)) continue;
        this.db
          .prepare(
            `UPDATE tasks SET schedule_id = @scheduleId, title = @title, description = @description, scheduled_date = @scheduledDate,
               repeat = @repeat, every = @every, interval = @interval, info = @info, items = @items, updated_at = @stamp,
               done = CASE WHEN @dateChanged THEN 0 ELSE done END,
               done_at = CASE WHEN @dateChanged THEN NULL ELSE done_at END,
               retry_after = CASE WHEN @dateChanged THEN NULL ELSE retry_after END,
               run_id = CASE WHEN @dateChanged THEN NULL ELSE run_id END
             WHERE id = @id AND (claimed_by IS NULL OR claimed_until <= @nowMs)`,
          )
          .run({ ...columnsOf({ ...task, scheduledDate }), stamp, nowMs, dateChanged: dateChanged ? 1 : 0 });
        changed = true;
      }
      for (const gone of existing.values()) {
        if (isLiveClaim(gone, nowMs) || gone.done) continue;
        this.db.prepare('DELETE FROM tasks WHERE id = ? AND (claimed_by IS NULL OR claimed_until <= ?)').run(gone.id, nowMs);
        changed = true;
      }
      return this.purgeDone(now) > 0 || changed;
    });
    return sync.immediate();
  }

  /** Done tasks whose Madrid day has ended are forgotten; answers how many. */
  purgeDone(now: Date): number {
    return this.db.prepare('DELETE FROM tasks WHERE done = 1 AND done_at < ?').run(startOfMadridDay(now).toISOString()).changes;
  }

  /**
   * Claims the task to run now, if any: none while any live claim exists (one task at a time across
   * processes); else the soonest task due by `now` (any earlier day too: a missed one runs once), not
   * done, not being removed, of an active app, past its retry time. One conditional UPDATE, so of two
   * processes asking at once only one gets it.
   */
  claimDue(now: Date, owner: string, leaseMs: number, activeApps: readonly AutopilotAppId[]): CachedTask | null {
    if (activeApps.length === 0) return null;
    const nowMs = now.getTime();
    const row = this.db
      .prepare<[{ owner: string; until: number; nowMs: number; nowIso: string; apps: string }], TaskRow>(
        `UPDATE tasks SET claimed_by = @owner, claimed_until = @until, updated_at = @nowIso
         WHERE id = (
             SELECT id FROM tasks
             WHERE done = 0 AND removing = 0 AND scheduled_date <= @nowIso
               AND app IN (SELECT value FROM json_each(@apps))
               AND (retry_after IS NULL OR retry_after <= @nowMs)
               AND (claimed_by IS NULL OR claimed_until <= @nowMs)
             ORDER BY scheduled_date, id
             LIMIT 1)
           AND NOT EXISTS (SELECT 1 FROM tasks WHERE claimed_by IS NOT NULL AND claimed_until > @nowMs)
         RETURNING *`,
      )
      .get({ owner, until: nowMs + leaseMs, nowMs, nowIso: now.toISOString(), apps: JSON.stringify(activeApps) });
    return row ? taskFromRow(row) : null;
  }

  /** Extends the owner's claim; false when it is no longer the owner's (its lease ran out and another took it). */
  renewClaim(id: string, owner: string, now: Date, leaseMs: number): boolean {
    return this.db.prepare('UPDATE tasks SET claimed_until = ? WHERE id = ? AND claimed_by = ?').run(now.getTime() + leaseMs, id, owner).changes === 1;
  }

  /** Lets go of the owner's claim, nothing else changed; with `retryAfter`, not claimed again before then. */
  release(id: string, owner: string, retryAfter: Date | null): boolean {
    return (
      this.db
        .prepare('UPDATE tasks SET claimed_by = NULL, claimed_until = NULL, retry_after = ? WHERE id = ? AND claimed_by = ?')
        .run(retryAfter?.getTime() ?? null, id, owner).changes === 1
    );
  }

  /** Notes the server run of the claimed slot (for the history, and to show it after a restart). */
  setRunId(id: string, owner: string, runId: string): void {
    this.db.prepare('UPDATE tasks SET run_id = ? WHERE id = ? AND claimed_by = ?').run(runId, id, owner);
  }

  /**
   * The task as the server now has it (its date moved: by the user, or by this loop's advance), with
   * the claim released: it runs at that date. False when the claim was no longer the owner's.
   */
  takeFromServer(id: string, owner: string, task: IncomingTask, now: Date): boolean {
    const changed = this.db
      .prepare(
        `UPDATE tasks SET title = @title, description = @description, scheduled_date = @scheduledDate, repeat = @repeat, every = @every,
           interval = @interval, info = @info, items = @items, done = 0, done_at = NULL, run_id = NULL, retry_after = NULL,
           claimed_by = NULL, claimed_until = NULL, updated_at = @stamp
         WHERE id = @id AND claimed_by = @owner`,
      )
      .run({ ...columnsOf({ ...task, scheduledDate: iso(task.scheduledDate) }), owner, stamp: now.toISOString() }).changes;
    return changed === 1;
  }

  /** A one-off task that ran (and was deleted on the server): shown with its check until the day ends. */
  markDone(id: string, owner: string, now: Date): boolean {
    return (
      this.db
        .prepare('UPDATE tasks SET done = 1, done_at = @stamp, claimed_by = NULL, claimed_until = NULL, updated_at = @stamp WHERE id = @id AND claimed_by = @owner')
        .run({ id, owner, stamp: now.toISOString() }).changes === 1
    );
  }

  /** Forgets a task (gone from the server, or removed by the user); with `owner`, only while that owner holds it. */
  drop(id: string, owner?: string): boolean {
    if (owner === undefined) return this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id).changes === 1;
    return this.db.prepare('DELETE FROM tasks WHERE id = ? AND claimed_by = ?').run(id, owner).changes === 1;
  }

  /**
   * The user asked to delete it: it is marked removing (so no loop claims it) unless a live claim
   * holds it. 'running' when one does, 'missing' when there is no such task.
   */
  markRemoving(id: string, now: Date): 'marked' | 'running' | 'missing' {
    const nowMs = now.getTime();
    const marked = this.db
      .prepare('UPDATE tasks SET removing = 1, updated_at = ? WHERE id = ? AND (claimed_by IS NULL OR claimed_until <= ?)')
      .run(now.toISOString(), id, nowMs).changes;
    if (marked === 1) return 'marked';
    return this.task(id) === undefined ? 'missing' : 'running';
  }

  /** The delete did not go through: the task goes back to waiting for its time. */
  unmarkRemoving(id: string): void {
    this.db.prepare('UPDATE tasks SET removing = 0 WHERE id = ?').run(id);
  }

  /**
   * At start: claims of processes that no longer exist are let go at once (without waiting out their
   * lease), and so are removals left half done long ago. Answers how many claims were released.
   */
  releaseDeadClaims(isAlive: (pid: number) => boolean, now: Date, staleRemovalMs = 60_000): number {
    const release = this.db.transaction((): number => {
      this.db.prepare('UPDATE tasks SET removing = 0 WHERE removing = 1 AND updated_at < ?').run(new Date(now.getTime() - staleRemovalMs).toISOString());
      const claims = this.db.prepare<[], { id: string; claimed_by: string }>('SELECT id, claimed_by FROM tasks WHERE claimed_by IS NOT NULL').all();
      let released = 0;
      for (const claim of claims) {
        const pid = Number(claim.claimed_by.split(':')[0]);
        if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
        released += this.db.prepare('UPDATE tasks SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?').run(claim.id, claim.claimed_by).changes;
      }
      return released;
    });
    return release.immediate();
  }

  private insert(app: AutopilotAppId, task: IncomingTask, stamp: string): void {
    this.db
      .prepare(
        `INSERT INTO tasks (id, app, schedule_id, title, description, scheduled_date, repeat, every, interval, info, items, updated_at)
         VALUES (@id, @app, @scheduleId, @title, @description, @scheduledDate, @repeat, @every, @interval, @info, @items, @stamp)`,
      )
      .run({ ...columnsOf(task), app, stamp });
  }

  private migrate(): void {
    const migrate = this.db.transaction(() => {
      // Read inside the write transaction: two processes opening a new file migrate it once.
      const version = Number(this.db.pragma('user_version', { simple: true }));
      if (version > SCHEMA_VERSION) throw new Error(NEWER_CACHE_MESSAGE);
      for (let next = version + 1; next <= SCHEMA_VERSION; next += 1) {
        this.db.exec(MIGRATIONS[next] ?? '');
        this.db.pragma(`user_version = ${next}`);
      }
    });
    migrate.immediate();
  }
}

/** A claim whose lease has not run out; an expired one may be taken by any loop. */
export function isLiveClaim(task: Pick<CachedTask, 'claimedBy' | 'claimedUntil'>, nowMs: number): boolean {
  return task.claimedBy !== null && task.claimedUntil !== null && task.claimedUntil > nowMs;
}

