import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BillingCaller } from './owner.ts';
import { atStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';
import { isRunningSubscription } from '#shared/api/billing.ts';

/** The firm's subscription row with what billing reads of it (webhooks keep the Stripe facts current). */
export async function firmSubscription(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'subscriptions.id',
      'subscriptions.status',
      'subscriptions.current_period_end',
      'subscriptions.cancel_at',
      'subscriptions.stripe_customer_id',
      'subscriptions.stripe_subscription_id',
      'subscriptions.stripe_schedule_id',
      'subscriptions.next_plan_id',
      'subscriptions.payment_failed_at',
      'plans.id as plan_id',
      'plans.ref as plan_ref',
      'plans.name as plan_name',
      'plans.base_price',
      'plans.extra_usage_price',
    ])
    .where('subscriptions.group_id', '=', groupId)
    .executeTakeFirstOrThrow();
}
export type FirmSubscription = Awaited<ReturnType<typeof firmSubscription>>;

/** The Stripe subscription's id while a paid plan runs, else null. */
export function runningSubscriptionId(row: FirmSubscription): string | null {
  return row.stripe_subscription_id !== null && isRunningSubscription(row.status) ? row.stripe_subscription_id : null;
}

/**
 * The firm's Stripe customer, made on first need. The idempotency key makes two requests at once get
 * the same customer from Stripe, and the guarded update keeps whichever id was stored first.
 */
export async function ensureCustomer(db: Kysely<Database>, stripe: StripeClient, log: FastifyBaseLogger, caller: BillingCaller): Promise<string> {
  const stored = await db.selectFrom('subscriptions').select('stripe_customer_id').where('group_id', '=', caller.groupId).executeTakeFirstOrThrow();
  if (stored.stripe_customer_id) return stored.stripe_customer_id;

  const profile = await db.selectFrom('billing_profiles').select('name').where('group_id', '=', caller.groupId).executeTakeFirst();
  const customer = await atStripe(log, 'crear el cliente', () =>
    stripe.customers.create(
      { email: caller.email, name: profile?.name ?? caller.groupName, metadata: { group_id: caller.groupId } },
      { idempotencyKey: `customer-${caller.groupId}` },
    ),
  );
  await db.updateTable('subscriptions').set({ stripe_customer_id: customer.id }).where('group_id', '=', caller.groupId).where('stripe_customer_id', 'is', null).execute();
  const kept = await db.selectFrom('subscriptions').select('stripe_customer_id').where('group_id', '=', caller.groupId).executeTakeFirstOrThrow();
  return kept.stripe_customer_id ?? customer.id;
}
