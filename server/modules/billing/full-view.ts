import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { deriveSubscription } from '#shared/billing/index.ts';
import { STRIPE_SUB_STATUSES, type Plan, type SubscriptionFull } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';
import { findSubscriptionRecord, TRIAL_PLAN_REF } from '../subscriptions/service.ts';
import { listCards } from './cards.ts';
import { firmSubscription, runningSubscriptionId } from './customer.ts';
import type { BillingCaller } from './owner.ts';
import type { StripeClient } from './stripe-client.ts';

/** The paid plans on offer, cheapest first, marking the firm's own. Without Stripe: the seeded plans. */
export async function listPlans(db: Kysely<Database>, groupId: string): Promise<Plan[]> {
  const [rows, firm] = await Promise.all([
    db.selectFrom('plans').selectAll().where('ref', '<>', TRIAL_PLAN_REF).where('available', '=', 1).orderBy('base_price').orderBy('ref').execute(),
    db.selectFrom('subscriptions').select('plan_id').where('group_id', '=', groupId).executeTakeFirst(),
  ]);
  return rows.map((row) => ({
    ref: row.ref,
    name: row.name,
    basePrice: Number(row.base_price),
    usageLimit: Number(row.usage_limit),
    extraUsagePrice: Number(row.extra_usage_price),
    current: row.id === firm?.plan_id,
  }));
}

type StripeStatus = (typeof STRIPE_SUB_STATUSES)[number];
const toStripeStatus = (value: string): StripeStatus => STRIPE_SUB_STATUSES.find((status) => status === value) ?? 'incomplete';

export interface FullViewDeps {
  db: Kysely<Database>;
  stripe: StripeClient | null;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Spec §3's full view: the usage figures derived from the stored subscription, the Stripe facts the
 * webhooks keep, and the cards, read live from Stripe (a 502 when Stripe does not answer, rather than a
 * page that silently shows no card).
 */
export async function subscriptionFull({ db, stripe, now, log }: FullViewDeps, caller: BillingCaller): Promise<SubscriptionFull> {
  const [record, row] = await Promise.all([findSubscriptionRecord(db, caller.groupId), firmSubscription(db, caller.groupId)]);
  const next = row.next_plan_id ? await db.selectFrom('plans').select(['ref', 'name']).where('id', '=', row.next_plan_id).executeTakeFirst() : undefined;
  const cards = stripe && row.stripe_customer_id ? await listCards(stripe, log, { customerId: row.stripe_customer_id, subscriptionId: runningSubscriptionId(row) }) : [];
  return {
    ...deriveSubscription(record, now()),
    stripeSub: row.stripe_subscription_id ? { status: toStripeStatus(row.status), currentPeriodEnd: row.current_period_end, cancelAt: row.cancel_at } : null,
    ref: row.plan_ref,
    basePrice: Number(row.base_price),
    extraUsagePrice: Number(row.extra_usage_price),
    stripePaymentMethods: cards,
    scheduleSubNextPhaseRef: next?.ref ?? null,
    scheduleSubNextPhaseName: next?.name ?? null,
    paymentFailed: row.payment_failed_at !== null,
    paymentsEnabled: stripe !== null,
    canManage: caller.isOwner,
  };
}
