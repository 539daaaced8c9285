import type { Kysely } from 'kysely';
import { SCHEDULE_MOVED_MESSAGE, type DeviceScheduleCheck, type SlotRun } from '#shared/api/autopilot.ts';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { DeviceCaller } from '../devices/auth.ts';
import type { RunLauncher } from '../runs/launcher.ts';
import { RUN_NOT_FOUND_MESSAGE } from '../runs/run-state.ts';
import { futureDate, parseInputs, scheduleNotFound, scheduleRows, toScheduledFlow } from './service.ts';
import { currentSlotAttempt, type SlotAttempt } from './slots.ts';

/**
 * The autopilot's side of schedules (shared/api/autopilot.ts): a machine sees, launches and moves on
 * only its own schedules (machine_id = the token's machine, in the token's group). Another machine's
 * or another firm's schedule does not exist for it.
 */

export function scheduleMoved(): HttpError {
  return new HttpError(409, 'SCHEDULE_MOVED', SCHEDULE_MOVED_MESSAGE);
}

/** The ISO date as stored (UTC, so dates compare as text). */
const stored = (isoDate: string): string => new Date(isoDate).toISOString();

function machineSchedule(db: Kysely<Database>, caller: DeviceCaller, id: string) {
  return db
    .selectFrom('flow_schedules')
    .select(['id', 'group_id', 'user_id', 'flow_id', 'scheduled_date', 'flow_inputs', 'machine_id'])
    .where('id', '=', id)
    .where('group_id', '=', caller.groupId)
    .where('machine_id', '=', caller.machineId)
    .executeTakeFirst();
}

function toSlotRun(run: Pick<SlotAttempt, 'id' | 'state' | 'launch_status' | 'result'>): SlotRun {
  return { runId: run.id, state: run.state, launchStatus: run.launch_status, result: run.result };
}

/** This machine's schedules, soonest first. */
export async function listMachineSchedules(db: Kysely<Database>, caller: DeviceCaller): Promise<ScheduledFlow[]> {
  const rows = await scheduleRows(db, caller.groupId).where('s.machine_id', '=', caller.machineId).orderBy('s.scheduled_date').orderBy('s.id').execute();
  return rows.map(toScheduledFlow);
}

/** Whether one of this machine's schedules still exists, and as what (its current date). */
export async function checkMachineSchedule(db: Kysely<Database>, caller: DeviceCaller, id: string): Promise<DeviceScheduleCheck> {
  const row = await scheduleRows(db, caller.groupId).where('s.machine_id', '=', caller.machineId).where('s.id', '=', id).executeTakeFirst();
  return row ? { exists: true, schedule: toScheduledFlow(row) } : { exists: false, schedule: null };
}

/**
 * The run of one slot of this machine's schedule, launched now when the slot has none (or only
 * attempts that ended as 299). The launch is the runner's: the schedule's member, flow and inputs, as
 * a remote launch on this machine, which its own run loop then picks up through its long poll. Two
 * requests for one slot at once get one run: they use the same idempotency key, and the unique index
 * on it lets one insert in (RunService.launchRun answers the other with the winner).
 */
export async function launchSlot(db: Kysely<Database>, runs: RunLauncher, caller: DeviceCaller, id: string, scheduledDate: string): Promise<SlotRun> {
  const schedule = await machineSchedule(db, caller, id);
  if (!schedule) throw scheduleNotFound();
  if (schedule.scheduled_date !== stored(scheduledDate)) throw scheduleMoved();

  const { key, run } = await currentSlotAttempt(db, schedule.id, schedule.scheduled_date);
  if (run) return toSlotRun(run);
  try {
    const { runId } = await runs.launch({
      groupId: schedule.group_id,
      userId: schedule.user_id,
      flowId: schedule.flow_id,
      inputs: parseInputs(schedule.flow_inputs),
      idempotencyKey: key,
      scheduleId: schedule.id,
      machineId: caller.machineId,
    });
    return toSlotRun(await db.selectFrom('flow_runs').select(['id', 'state', 'launch_status', 'result']).where('id', '=', runId).executeTakeFirstOrThrow());
  } catch (error) {
    const refusal = error instanceof HttpError && REFUSALS_IN_HISTORY.has(error.statusCode) ? await refusalOf(db, schedule.id, schedule.user_id, error.statusCode, key) : undefined;
    if (refusal) return toSlotRun(refusal);
    // Any other refusal (the robot no longer offered, the machine no longer the member's) leaves no
    // run behind: the caller gets it as it is, a 4xx with its code.
    throw error;
  }
}

/** Refusals RunService keeps in the history for a schedule's launch: no credits (402), inputs no longer valid (400). */
const REFUSALS_IN_HISTORY = new Set([402, 400]);

/**
 * The run a refused launch left in the history (NotEnoughSlans 402 or WrongInput 400, charged
 * nothing). RunService writes it without an idempotency key, so it is found as this schedule's newest
 * such run that no slot has taken yet (idempotency_key null), and it is then given the slot's key: the
 * slot counts as run (as the server's runner treats a refusal), and asking again for the slot
 * answers the same refusal instead of launching it again. Two refusals of one slot at once: the
 * unique key lets one of them take it, and both answer that one.
 */
async function refusalOf(db: Kysely<Database>, scheduleId: string, userId: string, launchStatus: number, key: string): Promise<SlotAttempt | undefined> {
  const refused = await db
    .selectFrom('flow_runs')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .where('user_id', '=', userId)
    .where('idempotency_key', 'is', null)
    .where('launch_status', '=', launchStatus)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (refused) {
    await db
      .updateTable('flow_runs')
      .set({ idempotency_key: key })
      .where('id', '=', refused.id)
      .where('idempotency_key', 'is', null)
      .execute()
      .catch(() => undefined); // another refusal of this slot took the key first: answered below
  }
  return db
    .selectFrom('flow_runs')
    .select(['id', 'state', 'result', 'launch_status', 'idempotency_key'])
    .where('schedule_id', '=', scheduleId)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** A run of this machine's schedule, as the autopilot follows it; any other run is a 404. */
export async function machineSlotRun(db: Kysely<Database>, caller: DeviceCaller, id: string, runId: string): Promise<SlotRun> {
  const run = await db
    .selectFrom('flow_runs')
    .select(['id', 'state', 'launch_status', 'result'])
    .where('id', '=', runId)
    .where('schedule_id', '=', id)
    .where('group_id', '=', caller.groupId)
    .where('machine_id', '=', caller.machineId)
    .executeTakeFirst();
  if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
  return toSlotRun(run);
}

/** After a guarded write changed nothing: 404 when the schedule is gone (for this machine), else it moved (409). */
async function goneOrMoved(db: Kysely<Database>, caller: DeviceCaller, id: string): Promise<HttpError> {
  return (await machineSchedule(db, caller, id)) ? scheduleMoved() : scheduleNotFound();
}

/**
 * Moves a repeating schedule on after its slot ran: to `to`, only while it is still at `from` (one
 * guarded UPDATE), so a date the user moved it to in the meantime stands (409).
 */
export async function advanceMachineSchedule(db: Kysely<Database>, caller: DeviceCaller, id: string, move: { from: string; to: string }, now: Date): Promise<ScheduledFlow> {
  const to = futureDate(move.to, now, 'to');
  const result = await db
    .updateTable('flow_schedules')
    .set({ scheduled_date: to, claimed_by: null, claimed_until: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('group_id', '=', caller.groupId)
    .where('machine_id', '=', caller.machineId)
    .where('scheduled_date', '=', stored(move.from))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw await goneOrMoved(db, caller, id);
  const row = await scheduleRows(db, caller.groupId).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw scheduleNotFound();
  return toScheduledFlow(row);
}

/** Deletes a one-off schedule after its slot ran, only while it is still at `from` (409 otherwise). */
export async function removeMachineSchedule(db: Kysely<Database>, caller: DeviceCaller, id: string, from: string): Promise<void> {
  const result = await db
    .deleteFrom('flow_schedules')
    .where('id', '=', id)
    .where('group_id', '=', caller.groupId)
    .where('machine_id', '=', caller.machineId)
    .where('scheduled_date', '=', stored(from))
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw await goneOrMoved(db, caller, id);
}
