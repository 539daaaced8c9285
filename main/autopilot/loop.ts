import { setTimeout as sleep } from 'node:timers/promises';
import type { SlotRun } from '#shared/api/autopilot.ts';
import { ABORTED_LAUNCH_STATUS } from '#shared/api/autopilot.ts';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import type { AutopilotAppId } from '#shared/autopilot/state.ts';
import { nextRunDate } from '#shared/schedule/index.ts';
import type { DeviceLinkService } from '../device/connection.ts';
import { DeviceError } from '../device/errors.ts';
import type { DeviceServerClient } from '../device/server-client.ts';
import { robotsTaskFrom } from './apps.ts';
import type { CachedTask, TaskCache } from './task-cache.ts';

/** node-cron's schedule as the loop uses it; tests pass one they tick by hand. */
export type Cron = (expression: string, tick: () => Promise<void>) => { stop(): void };

/**
 * Every second. The spec checks every 3 s; a second keeps "due -> robot started" under a second (the
 * goal) and costs one indexed SQLite query when nothing is due.
 */
export const LOOP_EXPRESSION = '* * * * * *';
/** A claim holds this long unless renewed (it is renewed at every look at the run). */
export const CLAIM_LEASE_MS = 60_000;
/** The server did not answer: the task is tried again after this. */
export const UNREACHABLE_RETRY_MS = 5_000;
/** The server refused in a way we did not expect: tried again after this (never lost). */
export const FAILURE_RETRY_MS = 60_000;

export interface ExecutionLoopOptions {
  cache: TaskCache;
  link: DeviceLinkService;
  /** This autopilot's claims: `${pid}:${uuid}`. */
  owner: string;
  now: () => Date;
  log: (message: string) => void;
  retryAfterAbortMs: number;
  followEveryMs: number;
  cron: Cron;
  /** The apps whose tasks may run now (none while unlinked). */
  activeApps: () => AutopilotAppId[];
  /** The robots app's load: after the server said a schedule moved, the cache takes its new dates. */
  resync: () => Promise<void>;
  /** A task started, its run became known, or it ended. */
  changed: () => void;
  /**
   * Runs an app's own task (no schedule: the Altas task); false when its app has no runner here. A task
   * that ran is removed (its app's next load makes it again if work is left); one that throws is tried later.
   */
  runAppTask?: (task: CachedTask, signal: AbortSignal) => Promise<boolean>;
}

export interface ExecutionLoop {
  readonly running: boolean;
  start(): void;
  /** No more ticks; the task under way stops being followed and is released (its run goes on in the run loop). */
  stop(): Promise<void>;
  /** One look for a due task, and its whole run if one is claimed (what each cron tick does). */
  tick(): Promise<void>;
}

/**
 * The execution loop (spec §4): one task at a time. A tick claims the first due task, checks its
 * schedule on the server (gone -> dropped; moved -> the new date is taken), asks the server for the
 * slot's run (one run per slot, however often asked: the machine's run loop executes it), follows it
 * until it ends, then deletes a one-off schedule or moves a repeating one to its next date (each only
 * while the schedule is still at the date it ran), and updates the cache. A 299 run changes nothing:
 * the slot is tried again after retryAfterAbortMs. A server that does not answer releases the task
 * for a retry; nothing is lost. After a crash the dead claim is released at start and the same slot
 * launched again, which the server answers with the same run: it is followed, not run twice.
 */
export function createExecutionLoop(options: ExecutionLoopOptions): ExecutionLoop {
  const { cache, link, owner, now, log } = options;
  let cronTask: { stop(): void } | null = null;
  let current: Promise<void> | null = null;
  let following: AbortController | null = null;

  const later = (ms: number) => new Date(now().getTime() + ms);

  async function step(): Promise<void> {
    const client = link.client();
    const record = link.current();
    if (!client || !record) return;
    const task = cache.claimDue(now(), owner, CLAIM_LEASE_MS, options.activeApps());
    if (!task) return;
    options.changed();
    const controller = new AbortController();
    following = controller;
    try {
      if (task.scheduleId === null) {
        await runAppTask(task, controller.signal);
        return;
      }
      await runScheduledFlow(client, task, task.scheduleId, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) {
        // Stopped (panel closed, shutdown): the next loop asks for the slot again and gets the same run.
        cache.release(task.id, owner, null);
        return;
      }
      if (error instanceof DeviceError && error.reason === 'token-refused') {
        cache.release(task.id, owner, null);
        await link.tokenRefused(record);
        return;
      }
      const unreachable = error instanceof DeviceError && error.reason === 'unreachable';
      log(`Piloto automático: '${task.title}' se reintentará: ${error instanceof Error ? error.message : String(error)}`);
      cache.release(task.id, owner, later(unreachable ? UNREACHABLE_RETRY_MS : FAILURE_RETRY_MS));
    } finally {
      following = null;
      options.changed();
    }
  }

  async function runAppTask(task: CachedTask, signal: AbortSignal): Promise<void> {
    // Its work may outlast one lease (a RED batch): the claim is renewed while it runs.
    const renewing = setInterval(() => cache.renewClaim(task.id, owner, now(), CLAIM_LEASE_MS), CLAIM_LEASE_MS / 3);
    renewing.unref();
    try {
      const ran = options.runAppTask ? await options.runAppTask(task, signal) : false;
      if (ran) cache.drop(task.id, owner);
      else cache.release(task.id, owner, later(FAILURE_RETRY_MS));
    } finally {
      clearInterval(renewing);
    }
  }

  async function runScheduledFlow(client: DeviceServerClient, task: CachedTask, scheduleId: string, signal: AbortSignal): Promise<void> {
    // Still there, still at this date?
    const check = await client.checkSchedule(scheduleId);
    if (!check.exists || !check.schedule) {
      cache.drop(task.id, owner);
      return;
    }
    if (!sameInstant(check.schedule.scheduledDate, task.scheduledDate)) {
      cache.takeFromServer(task.id, owner, robotsTaskFrom(check.schedule), now());
      return;
    }
    const schedule = check.schedule;

    let run: SlotRun;
    try {
      run = await client.launchSlot(scheduleId, task.scheduledDate);
    } catch (error) {
      if (isReason(error, 'not-found')) {
        cache.drop(task.id, owner);
        return;
      }
      if (isReason(error, 'conflict')) {
        // It moved between the check and the launch: take the server's dates.
        cache.release(task.id, owner, null);
        await options.resync();
        return;
      }
      if (isReason(error, 'refused')) {
        // The server will not launch this slot (inputs no longer valid, robot withdrawn): like the server's
        // own runner, the slot counts as done, so a refusal is not retried every few seconds for ever.
        log(`Piloto automático: '${task.title}' no se ha lanzado: ${(error as Error).message}`);
        return finishSlot(client, task, schedule, scheduleId);
      }
      throw error;
    }
    cache.setRunId(task.id, owner, run.runId);
    options.changed();

    while (run.state !== 'finished') {
      await sleep(options.followEveryMs, undefined, { signal });
      if (!cache.renewClaim(task.id, owner, now(), CLAIM_LEASE_MS)) {
        log(`Piloto automático: '${task.title}' ya no es de este proceso; lo sigue quien lo tiene.`);
        return;
      }
      run = await client.slotRun(scheduleId, run.runId);
    }

    if (run.launchStatus === ABORTED_LAUNCH_STATUS) {
      // Cut short (the device stopped, nothing charged): the same slot runs again later.
      cache.release(task.id, owner, later(options.retryAfterAbortMs));
      return;
    }
    await finishSlot(client, task, schedule, scheduleId);
  }

  /** After a slot ran (or was refused): a repeating schedule moves to its next date, a one-off goes. */
  async function finishSlot(client: DeviceServerClient, task: CachedTask, schedule: ScheduledFlow, scheduleId: string): Promise<void> {
    if (schedule.repeat) await moveToNextDate(client, task, schedule);
    else await removeOneOff(client, task, scheduleId);
  }

  async function moveToNextDate(client: DeviceServerClient, task: CachedTask, schedule: ScheduledFlow): Promise<void> {
    const next = nextRunDate(new Date(task.scheduledDate), schedule.every, schedule.interval, now());
    try {
      const moved = await client.advanceSchedule(schedule._id, task.scheduledDate, next.toISOString());
      cache.takeFromServer(task.id, owner, robotsTaskFrom(moved), now());
    } catch (error) {
      if (isReason(error, 'not-found')) cache.drop(task.id, owner);
      // The user moved it while it ran: the date they chose stands.
      else if (isReason(error, 'conflict')) await takeCurrent(client, task, schedule._id);
      else throw error;
    }
  }

  async function removeOneOff(client: DeviceServerClient, task: CachedTask, scheduleId: string): Promise<void> {
    try {
      await client.removeSchedule(scheduleId, task.scheduledDate);
    } catch (error) {
      if (isReason(error, 'conflict')) return takeCurrent(client, task, scheduleId);
      // Already gone (the user deleted it as it ran): it ran all the same.
      if (!isReason(error, 'not-found')) throw error;
    }
    cache.markDone(task.id, owner, now());
  }

  async function takeCurrent(client: DeviceServerClient, task: CachedTask, scheduleId: string): Promise<void> {
    const check = await client.checkSchedule(scheduleId);
    if (check.schedule) cache.takeFromServer(task.id, owner, robotsTaskFrom(check.schedule), now());
    else cache.drop(task.id, owner);
  }

  function tick(): Promise<void> {
    if (current || !cronTask) return current ?? Promise.resolve();
    current = step()
      .catch((error: unknown) => log(`Piloto automático: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (current = null));
    return current;
  }

  return {
    get running() {
      return cronTask !== null;
    },
    start() {
      if (cronTask) return;
      cronTask = options.cron(LOOP_EXPRESSION, tick);
    },
    async stop() {
      cronTask?.stop();
      cronTask = null;
      following?.abort();
      await current;
    },
    tick,
  };
}

function sameInstant(a: string, b: string): boolean {
  return new Date(a).getTime() === new Date(b).getTime();
}

function isReason(error: unknown, reason: DeviceError['reason']): boolean {
  return error instanceof DeviceError && error.reason === reason;
}
