import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { NO_PAID_SUBSCRIPTION_MESSAGE } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { offeredPlan } from './checkout.ts';
import { firmSubscription, runningSubscriptionId, type FirmSubscription } from './customer.ts';
import { atStripe, isMissingAtStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';
import { idOf, isoOf } from './stripe-ids.ts';

export const SAME_PLAN_MESSAGE = 'Ese ya es tu plan actual';

export interface PlanChangeDeps {
  db: Kysely<Database>;
  stripe: StripeClient;
  log: FastifyBaseLogger;
}

/** The firm's row while a paid plan runs, with the Stripe subscription's id; else 409 NO_PAID_SUBSCRIPTION. */
async function paidSubscription(db: Kysely<Database>, groupId: string): Promise<{ row: FirmSubscription; subscriptionId: string }> {
  const row = await firmSubscription(db, groupId);
  const subscriptionId = runningSubscriptionId(row);
  if (!subscriptionId) throw new HttpError(409, 'NO_PAID_SUBSCRIPTION', NO_PAID_SUBSCRIPTION_MESSAGE);
  return { row, subscriptionId };
}

/** The subscription's items as a phase lists them: the metered price takes no quantity. */
function phaseItems(subscription: Stripe.Subscription): Stripe.SubscriptionScheduleUpdateParams.Phase.Item[] {
  return subscription.items.data.map((item) => (item.price.recurring?.usage_type === 'metered' ? { price: item.price.id } : { price: item.price.id, quantity: item.quantity ?? 1 }));
}

/** The current period's end: since API 2025-03-31 periods live on the items. */
function periodEnd(subscription: Stripe.Subscription): number {
  return Math.max(...subscription.items.data.map((item) => item.current_period_end));
}

/**
 * The plan from the next period on: a schedule whose first phase is the current plan until the period
 * ends and whose second is the new plan; at its end the schedule releases the subscription. The stored
 * schedule and next plan come from Stripe's answer (the webhooks will say the same).
 */
export async function scheduleNextPlan({ db, stripe, log }: PlanChangeDeps, groupId: string, planRef: string): Promise<void> {
  const { row, subscriptionId } = await paidSubscription(db, groupId);
  const plan = await offeredPlan(db, planRef);
  if (plan.id === row.plan_id) throw new HttpError(409, 'SAME_PLAN', SAME_PLAN_MESSAGE);

  const schedule = await atStripe(log, 'programar el cambio de plan', async () => {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const existing = idOf(subscription.schedule);
    const current = existing ? await stripe.subscriptionSchedules.retrieve(existing) : await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId });
    const phaseStart = current.current_phase?.start_date ?? current.phases[0]?.start_date;
    if (phaseStart === undefined) throw new Error(`La programación ${current.id} no tiene fase actual`);
    return stripe.subscriptionSchedules.update(current.id, {
      end_behavior: 'release',
      phases: [
        { items: phaseItems(subscription), start_date: phaseStart, end_date: periodEnd(subscription) },
        { items: [{ price: plan.basePriceId, quantity: 1 }, { price: plan.extraPriceId }] },
      ],
    });
  });

  const nextPrices = (schedule.phases[1]?.items ?? []).map((item) => idOf(item.price)).filter((id) => id !== null);
  const next = nextPrices.length ? await db.selectFrom('plans').select('id').where('stripe_price_id', 'in', nextPrices).executeTakeFirst() : undefined;
  await db.updateTable('subscriptions').set({ stripe_schedule_id: schedule.id, next_plan_id: next?.id ?? null }).where('group_id', '=', groupId).execute();
}

/** Keeps the current plan: the schedule is released (the subscription goes on unchanged). */
export async function keepCurrentPlan({ db, stripe, log }: PlanChangeDeps, groupId: string): Promise<void> {
  const row = await firmSubscription(db, groupId);
  if (row.stripe_schedule_id) await releaseSchedule(stripe, log, row.stripe_schedule_id);
  await db.updateTable('subscriptions').set({ stripe_schedule_id: null, next_plan_id: null }).where('group_id', '=', groupId).execute();
}

/** A schedule Stripe no longer knows, or already released, needs nothing more. */
async function releaseSchedule(stripe: StripeClient, log: FastifyBaseLogger, scheduleId: string): Promise<void> {
  await atStripe(log, 'anular el cambio de plan', async () => {
    const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId).catch((error: unknown) => {
      if (isMissingAtStripe(error)) return null;
      throw error;
    });
    if (schedule && (schedule.status === 'active' || schedule.status === 'not_started')) await stripe.subscriptionSchedules.release(scheduleId);
  });
}

/**
 * Cancel at the period's end (true) or undo it (false). A pending change of plan is released before
 * cancelling: Stripe refuses to cancel a subscription a schedule manages, and a firm that leaves has
 * no next plan. cancel_at is stored from Stripe's answer so the page shows it at once.
 */
export async function setCancelAtPeriodEnd({ db, stripe, log }: PlanChangeDeps, groupId: string, cancel: boolean): Promise<void> {
  const { row, subscriptionId } = await paidSubscription(db, groupId);
  if (cancel && row.stripe_schedule_id) {
    await releaseSchedule(stripe, log, row.stripe_schedule_id);
    await db.updateTable('subscriptions').set({ stripe_schedule_id: null, next_plan_id: null }).where('group_id', '=', groupId).execute();
  }
  const subscription = await atStripe(log, cancel ? 'cancelar el plan' : 'reanudar el plan', () => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }));
  const cancelAt = subscription.cancel_at ?? (cancel ? periodEnd(subscription) : null);
  await db.updateTable('subscriptions').set({ cancel_at: cancelAt === null ? null : isoOf(cancelAt) }).where('group_id', '=', groupId).execute();
}
