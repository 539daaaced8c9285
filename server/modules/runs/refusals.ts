import type { Insertable, Kysely } from 'kysely';
import type { NotEnoughCredits } from '#shared/api/flows.ts';
import { creditUnitNames, deriveSubscription, formatCredits } from '#shared/billing/index.ts';
import type { Database, FlowRunsTable } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { recordRunCreated } from '../flowlogs/counts.ts';
import { findSubscriptionRecord } from '../subscriptions/service.ts';
import type { LaunchInput } from './launcher.ts';

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

/**
 * Spec §9: a run needs an active subscription, and an estimate within the balance left once the
 * firm's queued and running runs have their reservations (`reserved`), unless the user accepted paid
 * extra usage on a paid plan (never on a trial). Null when the launch may go ahead.
 */
export async function creditRefusal(db: Kysely<Database>, input: Pick<LaunchInput, 'groupId' | 'acceptExtraUsage'>, estimatedCost: number, now: Date, reserved = 0): Promise<HttpError | null> {
  const record = await findSubscriptionRecord(db, input.groupId);
  const usage = deriveSubscription(record, now);
  const extraSlanPrice = usage.extraSlanPrice ?? null;
  const canContinue = extraSlanPrice !== null;
  const available = Math.max(0, usage.balance - reserved);
  if (usage.active && (estimatedCost <= available || (input.acceptExtraUsage === true && canContinue))) return null;
  const currencies = await groupCurrencies(db, input.groupId);
  const details: NotEnoughCredits = { balance: available, estimatedCost, canContinue, extraSlanPrice };
  const held = reserved > 0 ? ` libres (${formatCredits(Math.min(reserved, usage.balance), currencies)} están reservados para robots en cola o en marcha)` : '';
  const message = usage.active
    ? `Insuficientes ${creditUnitNames(currencies).plural}: este robot cuesta unos ${formatCredits(estimatedCost, currencies)} y te quedan ${formatCredits(available, currencies)}${held}`
    : 'Tu suscripción no está activa: renuévala para lanzar robots';
  return new HttpError(402, 'NOT_ENOUGH_CREDITS', message, { details });
}

async function groupCurrencies(db: Kysely<Database>, groupId: string): Promise<string | undefined> {
  const group = await db.selectFrom('groups').select('config').where('id', '=', groupId).executeTakeFirst();
  try {
    const currencies = (JSON.parse(group?.config ?? '{}') as { currencies?: unknown }).currencies;
    return typeof currencies === 'string' ? currencies : undefined;
  } catch {
    return undefined;
  }
}
