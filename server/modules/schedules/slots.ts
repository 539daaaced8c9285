import type { Kysely } from 'kysely';
import { ABORTED_LAUNCH_STATUS } from '#shared/api/autopilot.ts';
import type { Database } from '../../db/schema.ts';

/** One run of a slot (a schedule at one date), as far as whoever launches the slot needs it. */
export interface SlotAttempt {
  id: string;
  state: 'queued' | 'running' | 'finished';
  result: string | null;
  launch_status: number | null;
  idempotency_key: string | null;
}

/**
 * The idempotency key of a slot's current attempt, and that attempt's run if it has one.
 *
 * The key is `${scheduleId}:${scheduledDate}`, plus `:n` after n attempts at the slot that ended as
 * 299 (cut short by the server or the device, not charged): such a slot must run again, under a key of
 * its own. Any other ending (done, failed, stopped by the user, refused) is the slot's run for good.
 * The server's runner and the autopilot's launches both go through here, so a slot has one run at a
 * time whoever asks, and asking again finds it.
 */
export async function currentSlotAttempt(db: Kysely<Database>, scheduleId: string, scheduledDate: string): Promise<{ key: string; run: SlotAttempt | undefined }> {
  const slot = `${scheduleId}:${scheduledDate}`;
  const attempts = await db
    .selectFrom('flow_runs')
    .select(['id', 'state', 'result', 'launch_status', 'idempotency_key'])
    .where('schedule_id', '=', scheduleId)
    .where((eb) => eb.or([eb('idempotency_key', '=', slot), eb('idempotency_key', 'like', `${slot}:%`)]))
    .execute();
  const aborted = attempts.filter((attempt) => attempt.launch_status === ABORTED_LAUNCH_STATUS).length;
  const key = aborted === 0 ? slot : `${slot}:${aborted}`;
  return { key, run: attempts.find((attempt) => attempt.idempotency_key === key) };
}
