import type { AutopilotAppId } from '#shared/autopilot/state.ts';
import type { ScheduleInterval } from '#shared/schedule/index.ts';
import type { CachedTask, IncomingTask } from './task.ts';

/** The task cache's file format: its schema by version, and how a task travels to and from its row. */

export const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE tasks (
      id             TEXT PRIMARY KEY,
      app            TEXT NOT NULL,
      schedule_id    TEXT,
      title          TEXT NOT NULL,
      description    TEXT NOT NULL,
      scheduled_date TEXT NOT NULL,
      repeat         INTEGER NOT NULL DEFAULT 0,
      every          INTEGER,
      interval       TEXT,
      info           TEXT NOT NULL DEFAULT '[]',
      items          TEXT NOT NULL DEFAULT '[]',
      done           INTEGER NOT NULL DEFAULT 0,
      done_at        TEXT,
      removing       INTEGER NOT NULL DEFAULT 0,
      run_id         TEXT,
      claimed_by     TEXT,
      claimed_until  INTEGER,
      retry_after    INTEGER,
      updated_at     TEXT NOT NULL
    );
    CREATE INDEX tasks_due ON tasks (done, removing, scheduled_date);
    CREATE TABLE apps (
      id           TEXT PRIMARY KEY,
      enabled      INTEGER NOT NULL,
      certificates TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE settings (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
};

export interface TaskRow {
  id: string;
  app: string;
  schedule_id: string | null;
  title: string;
  description: string;
  scheduled_date: string;
  repeat: number;
  every: number | null;
  interval: string | null;
  info: string;
  items: string;
  done: number;
  done_at: string | null;
  removing: number;
  run_id: string | null;
  claimed_by: string | null;
  claimed_until: number | null;
  retry_after: number | null;
  updated_at: string;
}

/** A task's columns as statements bind them. */
export function columnsOf(task: IncomingTask) {
  return {
    id: task.id,
    scheduleId: task.scheduleId,
    title: task.title,
    description: task.description,
    scheduledDate: task.scheduledDate,
    repeat: task.repeat ? 1 : 0,
    every: task.repeat?.every ?? null,
    interval: task.repeat?.interval ?? null,
    info: JSON.stringify(task.info),
    items: JSON.stringify(task.items),
  };
}

/** Same columns apart from the date (a sync that changed nothing writes nothing). */
export function sameContent(known: CachedTask, task: IncomingTask): boolean {
  const a = columnsOf(known);
  const b = columnsOf({ ...task, scheduledDate: known.scheduledDate });
  return (Object.keys(a) as (keyof typeof a)[]).every((key) => a[key] === b[key]);
}

export function taskFromRow(row: TaskRow): CachedTask {
  return {
    id: row.id,
    app: row.app as AutopilotAppId,
    scheduleId: row.schedule_id,
    title: row.title,
    description: row.description,
    scheduledDate: row.scheduled_date,
    repeat: row.repeat === 1 && row.every !== null && row.interval !== null ? { every: row.every, interval: row.interval as ScheduleInterval } : null,
    info: JSON.parse(row.info) as CachedTask['info'],
    items: JSON.parse(row.items) as string[],
    done: row.done === 1,
    doneAt: row.done_at,
    removing: row.removing === 1,
    runId: row.run_id,
    claimedBy: row.claimed_by,
    claimedUntil: row.claimed_until,
    retryAfter: row.retry_after,
    updatedAt: row.updated_at,
  };
}
