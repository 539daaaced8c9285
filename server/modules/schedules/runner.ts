import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ABORTED_LAUNCH_STATUS } from '#shared/api/autopilot.ts';
import { nextRunDate } from '#shared/schedule/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { parseInputs, toInterval } from './service.ts';
import { currentSlotAttempt } from './slots.ts';
import type { RunLauncher } from '../runs/launcher.ts';
import { RepeatingPass } from '../../timers/repeating-pass.ts';

/** What the runner needs from the runs module (RunService implements it, given by app.ts; tests pass a recording fake). */
export type ScheduleLauncher = Pick<RunLauncher, 'launch' | 'finished'>;

interface RunnerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ScheduleRunnerOptions {
  db: Kysely<Database>;
  launcher: ScheduleLauncher;
  now: () => Date;
  log: RunnerLog;
  /**
   * How long a claim holds unless renewed; the runner renews it every third of that while it follows
   * the run, so a runner killed mid-run lets another take the schedule a minute later, not after the run's
   * longest possible time.
   */
  leaseMs?: number;
  /** After an unexpected failure (not a refusal), when the schedule may be tried again. */
  retryMs?: number;
  /** Schedules claimed per tick at most. */
  batchSize?: number;
}


interface ClaimedSchedule {
  id: string;
  group_id: string;
  user_id: string;
  flow_id: string;
  scheduled_date: string;
  repeat: number;
  every: number;
  interval: string;
  flow_inputs: string;
  claim: string;
}

/**
 * Runs the schedules of server flows at their time (spec §4 Scheduled task), from any number of
 * server processes sharing one database. Desktop flows scheduled on a machine are that machine's
 * autopilot's (device-schedules.ts): it launches their slots itself, so they run while it is on.
 * - a due schedule is claimed with a conditional UPDATE, so exactly one runner launches it;
 * - the launch's idempotency key is the schedule and its date, so a claim retried after a runner
 *   died finds the same run instead of starting (and charging) another;
 * - when the run ends: a one-off schedule is deleted, a repeating one moves to its next future
 *   occurrence (nextRunDate: Madrid wall clock, so DST-safe, and a server down for days runs a
 *   missed schedule once); a run the server aborted (299) changes nothing, and the slot is tried
 *   again with a new key (that run was not charged).
 */
export class ScheduleRunner {
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private readonly repeating: RepeatingPass;

  constructor(private readonly options: ScheduleRunnerOptions) {
    this.repeating = new RepeatingPass(() => this.tick(), (error) => options.log.error({ err: error }, 'No se han podido lanzar los robots programados'));
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 60_000;
  }

  /** Checks for due schedules every `intervalMs` (the timer never keeps the process alive). */
  start(intervalMs: number): void {
    this.repeating.start(intervalMs);
  }

  /** No more claims; waits for the runs already launched to be settled (their schedules updated). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.repeating.stop();
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Claims the due schedules and launches them; returns how many it claimed. Their runs are followed in the background (idle()). */
  async tick(): Promise<number> {
    const claimed = await this.claimDue();
    for (const schedule of claimed) {
      const handling = this.runClaimed(schedule)
        .catch((error: unknown) => this.options.log.error({ err: error, scheduleId: schedule.id }, 'Error al actualizar un robot programado'))
        .finally(() => this.inFlight.delete(handling));
      this.inFlight.add(handling);
    }
    return claimed.length;
  }

  private async claimDue(): Promise<ClaimedSchedule[]> {
    const { db } = this.options;
    const now = this.options.now();
    const nowIso = now.toISOString();
    const due = await db
      .selectFrom('flow_schedules as s')
      .innerJoin('flows as f', 'f.id', 's.flow_id')
      .select(['s.id', 's.group_id', 's.user_id', 's.flow_id', 's.scheduled_date', 's.repeat', 's.every', 's.interval', 's.flow_inputs'])
      .where('f.runs_on', '=', 'server')
      .where('f.active', '=', 1)
      .where('s.scheduled_date', '<=', nowIso)
      .where((eb) => eb.or([eb('s.claimed_until', 'is', null), eb('s.claimed_until', '<', nowIso)]))
      .orderBy('s.scheduled_date')
      .limit(this.options.batchSize ?? 10)
      .execute();

    const claimed: ClaimedSchedule[] = [];
    for (const schedule of due) {
      if (this.stopped) break;
      const claim = randomUUID();
      // Only one UPDATE can match: the first to set claimed_until makes the condition false for the rest.
      const result = await db
        .updateTable('flow_schedules')
        .set({ claimed_by: claim, claimed_until: new Date(now.getTime() + this.leaseMs).toISOString() })
        .where('id', '=', schedule.id)
        .where('scheduled_date', '=', schedule.scheduled_date)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push({ ...schedule, claim });
    }
    return claimed;
  }

  private async runClaimed(schedule: ClaimedSchedule): Promise<void> {
    const renewal = setInterval(() => {
      this.renew(schedule).catch((error: unknown) => this.options.log.warn({ err: error, scheduleId: schedule.id }, 'No se ha podido renovar un robot programado en curso'));
    }, this.leaseMs / 3);
    renewal.unref();
    try {
      await this.launchAndFollow(schedule);
    } finally {
      clearInterval(renewal);
    }
  }

  /** Keeps the claim while this runner lives (a claim already lost to another runner stays lost). */
  private async renew(schedule: ClaimedSchedule): Promise<void> {
    await this.options.db
      .updateTable('flow_schedules')
      .set({ claimed_until: new Date(this.options.now().getTime() + this.leaseMs).toISOString() })
      .where('id', '=', schedule.id)
      .where('claimed_by', '=', schedule.claim)
      .execute();
  }

  private async launchAndFollow(schedule: ClaimedSchedule): Promise<void> {
    let launchStatus: number | null;
    try {
      const { runId } = await this.options.launcher.launch({
        groupId: schedule.group_id,
        userId: schedule.user_id,
        flowId: schedule.flow_id,
        inputs: parseInputs(schedule.flow_inputs),
        idempotencyKey: (await currentSlotAttempt(this.options.db, schedule.id, schedule.scheduled_date)).key,
        scheduleId: schedule.id,
      });
      ({ launchStatus } = await this.options.launcher.finished(runId));
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500 && error.statusCode !== 429) {
        // Refused (no credits, inputs no longer valid...): the refusal is in the history; this slot is done.
        this.options.log.warn({ scheduleId: schedule.id, code: error.code, reason: error.message }, 'Robot programado no lanzado');
        return this.advance(schedule);
      }
      // A server error, or the firm's queue full (429): the slot is tried again later.
      this.options.log.error({ err: error, scheduleId: schedule.id }, 'No se ha podido lanzar un robot programado; se reintentará');
      return this.release(schedule, new Date(this.options.now().getTime() + (this.options.retryMs ?? 5 * 60_000)));
    }
    if (launchStatus === ABORTED_LAUNCH_STATUS) return this.release(schedule, null);
    return this.advance(schedule);
  }

  /** Deletes a one-off schedule or moves a repeating one to its next future occurrence. */
  private async advance(schedule: ClaimedSchedule): Promise<void> {
    const { db } = this.options;
    const now = this.options.now();
    // Only while still ours and at the date we ran: a date the user moved it to in the meantime stands.
    const stillOurs = { id: schedule.id, claimed_by: schedule.claim, scheduled_date: schedule.scheduled_date };
    let changed: bigint;
    if (Number(schedule.repeat) === 1) {
      const next = nextRunDate(new Date(schedule.scheduled_date), Number(schedule.every), toInterval(schedule.interval), now);
      const result = await db
        .updateTable('flow_schedules')
        .set({ scheduled_date: next.toISOString(), claimed_by: null, claimed_until: null, updated_at: now.toISOString() })
        .where('id', '=', stillOurs.id)
        .where('claimed_by', '=', stillOurs.claimed_by)
        .where('scheduled_date', '=', stillOurs.scheduled_date)
        .executeTakeFirst();
      changed = result.numUpdatedRows;
    } else {
      const result = await db
        .deleteFrom('flow_schedules')
        .where('id', '=', stillOurs.id)
        .where('claimed_by', '=', stillOurs.claimed_by)
        .where('scheduled_date', '=', stillOurs.scheduled_date)
        .executeTakeFirst();
      changed = result.numDeletedRows;
    }
    if (Number(changed) === 0) await this.release(schedule, null);
  }

  /** Lets go of the claim; with `until`, no runner takes the schedule again before then. */
  private async release(schedule: ClaimedSchedule, until: Date | null): Promise<void> {
    await this.options.db
      .updateTable('flow_schedules')
      .set({ claimed_by: null, claimed_until: until?.toISOString() ?? null })
      .where('id', '=', schedule.id)
      .where('claimed_by', '=', schedule.claim)
      .execute();
  }
}
