import type { Insertable, Kysely } from 'kysely';
import type { Database, FlowRunsTable } from '../../db/schema.ts';
import type { HttpError } from '../../http/errors.ts';
import { recordRunCreated } from '../flowlogs/counts.ts';

/** A run row as a launch builds it, before it knows whether it will run. */
export type NewRunRow = Omit<Insertable<FlowRunsTable>, 'id' | 'idempotency_key' | 'state' | 'result' | 'launch_status' | 'message' | 'finished_at'>;

/**
 * A launch refused before anything ran, kept in the history as a finished run charged nothing, with
 * the reason as its message and its one log line: NotEnoughSlans (402) for credits, WrongInput (400)
 * for a schedule's inputs that are no longer valid (a launch from the launcher is answered on the
 * spot instead). It keeps no idempotency key: the same request must be able to start later.
 */
export async function recordRefusedLaunch(
  db: Kysely<Database>,
  row: NewRunRow & { id: string },
  refusal: { result: 'NotEnoughSlans' | 'WrongInput'; launchStatus: 402 | 400; message: string },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('flow_runs')
      .values({ ...row, idempotency_key: null, state: 'finished', result: refusal.result, launch_status: refusal.launchStatus, message: refusal.message, finished_at: now.toISOString() })
      .execute();
    await recordRunCreated(trx, row.group_id, Number(row.scheduled) === 1);
    await trx.insertInto('flow_run_logs').values({ run_id: row.id, seq: 0, level: 'warn', text: refusal.message, created_at: now.toISOString() }).execute();
  });
}

/** What the history says of inputs refused: the general message, then each field's reason. */
export function inputsRefusalMessage(error: HttpError): string {
  const reasons = (error.extra.issues ?? []).map((issue) => issue.message).filter((message) => message !== error.message);
  return [error.message, ...new Set(reasons)].join(': ').slice(0, 2000);
}
