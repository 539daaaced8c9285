import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import type { StripeClient } from './stripe-client.ts';
import { idOf, isoOf } from './stripe-ids.ts';
import { isRunningSubscription } from '#shared/api/billing.ts';

/**
 * A Stripe subscription's current state written to the firm's subscriptions row. It is always the
 * state read back from Stripe, never an event's snapshot, so an old event delivered late changes
 * nothing; and the period only ever moves forward, so a replay resets nothing twice.
 */

/** Statuses in which a new period gives the plan's slans (not an incomplete or ended subscription). */
const GRANTING_STATUSES = new Set<string>(['active', 'trialing', 'past_due']);
/** A subscription that is over: it never overwrites the firm's newer subscription. */
const ENDED_STATUSES = new Set<string>(['canceled', 'incomplete_expired']);

/** The firm a Stripe object is for: its metadata.group_id (set at checkout), else the stored customer. */
export async function firmOf(db: Kysely<Database>, metadata: Stripe.Metadata | null | undefined, customerId: string | null): Promise<string | null> {
  const groupId = metadata?.group_id;
  if (groupId) {
    const group = await db.selectFrom('groups').select('id').where('id', '=', groupId).executeTakeFirst();
    if (group) return group.id;
  }
  if (!customerId) return null;
  const row = await db.selectFrom('subscriptions').select('group_id').where('stripe_customer_id', '=', customerId).executeTakeFirst();
  return row?.group_id ?? null;
}

interface PlanRow {
  id: string;
  name: string;
  usage_limit: number;
}

async function planByPrice(db: Kysely<Database>, priceIds: readonly string[]): Promise<PlanRow | null> {
  if (priceIds.length === 0) return null;
  const plan = await db.selectFrom('plans').select(['id', 'name', 'usage_limit']).where('stripe_price_id', 'in', [...priceIds]).executeTakeFirst();
  return plan ?? null;
}

/** The plan's (licensed) item: the one whose price is not metered. Its period is the subscription's (API 2025-03-31+). */
function licensedItem(sub: Stripe.Subscription): Stripe.SubscriptionItem | null {
  return sub.items.data.find((item) => item.price.recurring?.usage_type !== 'metered') ?? sub.items.data[0] ?? null;
}

/** The plan of the schedule's next phase: the first phase starting at or after the current period's end. */
async function nextPlanId(db: Kysely<Database>, stripe: StripeClient, scheduleId: string | null, periodEnd: number): Promise<string | null> {
  if (!scheduleId) return null;
  const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId);
  if (schedule.status !== 'active' && schedule.status !== 'not_started') return null;
  const phase = schedule.phases.find((candidate) => candidate.start_date >= periodEnd);
  const prices = (phase?.items ?? []).flatMap((item) => {
    const price = idOf(item.price as string | { id: string });
    return price ? [price] : [];
  });
  return (await planByPrice(db, prices))?.id ?? null;
}

/**
 * Writes the subscription `sub` (as just read from Stripe) to the firm's row. Returns the firm, or
 * null when the subscription is not one of ours (no group in its metadata, an unknown customer).
 */
export async function applySubscription(db: Kysely<Database>, stripe: StripeClient, sub: Stripe.Subscription, now: Date, hintGroupId: string | null = null): Promise<string | null> {
  const customerId = idOf(sub.customer);
  const groupId = hintGroupId ?? (await firmOf(db, sub.metadata, customerId));
  if (!groupId) return null;
  const stored = await db
    .selectFrom('subscriptions')
    .select(['plan_id', 'status', 'current_period_end', 'cancel_at', 'stripe_customer_id', 'stripe_subscription_id', 'stripe_schedule_id', 'next_plan_id'])
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!stored) return null;
  // An ended subscription's late news must not undo the one the firm took out since.
  if (stored.stripe_subscription_id && stored.stripe_subscription_id !== sub.id && ENDED_STATUSES.has(sub.status)) return groupId;
  // A first payment not made yet (incomplete) does not end a trial that still has days left.
  if (stored.status === 'trialing' && !stored.stripe_subscription_id && (sub.status === 'incomplete' || sub.status === 'incomplete_expired')) return groupId;
  // A second paid plan for a firm whose first still runs (two checkouts paid at once): it is cancelled
  // at Stripe rather than written over the first, so the firm is charged for one plan and sees that one.
  if (stored.stripe_subscription_id && stored.stripe_subscription_id !== sub.id && isRunningSubscription(sub.status) && isRunningSubscription(stored.status)) {
    const first = await stripe.subscriptions.retrieve(stored.stripe_subscription_id);
    if (isRunningSubscription(first.status)) {
      await stripe.subscriptions.cancel(sub.id, {}, { idempotencyKey: `duplicate-${sub.id}` });
      return groupId;
    }
  }

  const item = licensedItem(sub);
  if (!item) return groupId;
  const plan = (await planByPrice(db, sub.items.data.map((candidate) => candidate.price.id))) ?? (await db.selectFrom('plans').select(['id', 'name', 'usage_limit']).where('id', '=', stored.plan_id).executeTakeFirstOrThrow());
  const periodStart = isoOf(item.current_period_start);
  const periodEnd = isoOf(item.current_period_end);
  const cancelAt = sub.cancel_at !== null ? isoOf(sub.cancel_at) : sub.cancel_at_period_end ? periodEnd : null;
  const scheduleId = idOf(sub.schedule);
  const nextPlan = await nextPlanId(db, stripe, scheduleId, item.current_period_end);

  await db.transaction().execute(async (trx) => {
    if (GRANTING_STATUSES.has(sub.status)) {
      // The period moved forward (or a paid subscription replaced the trial): usage starts again from
      // what the ledger charged since the period began (runs that closed before this webhook arrived
      // count here), and the period's slans are granted. The guarded update makes a replay, or a second
      // process, a no-op.
      const sinceStart = await trx
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('used'))
        .where('group_id', '=', groupId)
        .where('created_at', '>=', periodStart)
        .executeTakeFirst();
      const moved = await trx
        .updateTable('subscriptions')
        .set({ used_slans: Number(sinceStart?.used ?? 0), current_period_start: periodStart })
        .where('group_id', '=', groupId)
        .where((eb) => eb.or([eb('current_period_start', 'is', null), eb('current_period_start', '<', periodStart)]))
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0) {
        await trx
          .insertInto('credit_grants')
          .values({ id: randomUUID(), group_id: groupId, plan_name: plan.name, slans: Number(plan.usage_limit), reason: 'period', period_start: periodStart, period_end: periodEnd, created_at: now.toISOString() })
          .onConflict((oc) => oc.columns(['group_id', 'period_start']).doNothing())
          .execute();
      }
    }
    const state = {
      plan_id: plan.id,
      status: sub.status,
      current_period_end: periodEnd,
      cancel_at: cancelAt,
      stripe_customer_id: customerId,
      stripe_subscription_id: sub.id,
      stripe_schedule_id: scheduleId,
      next_plan_id: nextPlan,
    };
    // Written only when Stripe's state differs from ours: a replay leaves the row exactly as it was.
    const changed = (Object.keys(state) as Array<keyof typeof state>).some((key) => state[key] !== stored[key]);
    if (changed) await trx.updateTable('subscriptions').set({ ...state, stripe_synced_at: now.toISOString(), updated_at: now.toISOString() }).where('group_id', '=', groupId).execute();
  });
  return groupId;
}
