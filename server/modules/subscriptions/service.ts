import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SubscriptionRecord, SubscriptionStatus } from '#shared/billing/index.ts';
import type { Database } from '../../db/schema.ts';

export const TRIAL_PLAN_REF = 'trial';
const DAY_MS = 24 * 60 * 60 * 1000;

const STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid'];

/** An unknown stored status is read as 'incomplete', which never counts as active. */
function toStatus(value: string): SubscriptionStatus {
  return STATUSES.find((status) => status === value) ?? 'incomplete';
}

/**
 * A new group's subscription: trialing on the trial plan for the plan's trial days, with the trial's
 * slans recorded as a credit (reason 'trial') so the ledger shows where the balance came from.
 */
export async function startTrial(db: Kysely<Database>, groupId: string, now: Date): Promise<void> {
  const plan = await db.selectFrom('plans').select(['id', 'name', 'usage_limit', 'trial_days']).where('ref', '=', TRIAL_PLAN_REF).executeTakeFirst();
  if (!plan) throw new Error(`Falta el plan '${TRIAL_PLAN_REF}': ejecuta la semilla de la base de datos`);
  const start = now.toISOString();
  const end = new Date(now.getTime() + (plan.trial_days ?? 14) * DAY_MS).toISOString();
  await db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      group_id: groupId,
      plan_id: plan.id,
      status: 'trialing',
      current_period_end: end,
      cancel_at: null,
      used_slans: 0,
      created_at: start,
      updated_at: start,
    })
    .execute();
  await db
    .insertInto('credit_grants')
    .values({ id: randomUUID(), group_id: groupId, plan_name: plan.name, slans: Number(plan.usage_limit), reason: 'trial', period_start: start, period_end: end, created_at: start })
    .execute();
}

/** The group's subscription as shared/billing reads it, or null when the group has none. */
export async function findSubscriptionRecord(db: Kysely<Database>, groupId: string): Promise<SubscriptionRecord | null> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'plans.name',
      'plans.usage_limit',
      'plans.base_price',
      'plans.extra_usage_price',
      'subscriptions.status',
      'subscriptions.current_period_end',
      'subscriptions.cancel_at',
      'subscriptions.used_slans',
      'subscriptions.payment_failed_at',
    ])
    .where('subscriptions.group_id', '=', groupId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    name: row.name,
    status: toStatus(row.status),
    currentPeriodEnd: row.current_period_end,
    cancelAt: row.cancel_at,
    usageLimit: Number(row.usage_limit),
    usedSlans: Number(row.used_slans),
    basePrice: Number(row.base_price),
    extraUsagePrice: Number(row.extra_usage_price),
    paymentFailed: row.payment_failed_at !== null,
  };
}
