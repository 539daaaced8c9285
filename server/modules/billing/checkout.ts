import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ALREADY_SUBSCRIBED_MESSAGE, PLAN_NOT_FOUND_MESSAGE } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { TRIAL_PLAN_REF } from '../subscriptions/service.ts';
import { requireBillingInfo } from './billing-info.ts';
import { ensureCustomer, firmSubscription, runningSubscriptionId } from './customer.ts';
import type { BillingCaller } from './owner.ts';
import { atStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';

export interface CheckoutDeps {
  db: Kysely<Database>;
  stripe: StripeClient;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** A plan on offer with both its Stripe prices, or 404 PLAN_NOT_FOUND. */
export async function offeredPlan(db: Kysely<Database>, ref: string) {
  const plan = await db
    .selectFrom('plans')
    .select(['id', 'ref', 'name', 'stripe_price_id', 'stripe_extra_price_id'])
    .where('ref', '=', ref)
    .where('ref', '<>', TRIAL_PLAN_REF)
    .where('available', '=', 1)
    .executeTakeFirst();
  if (!plan?.stripe_price_id || !plan.stripe_extra_price_id) throw new HttpError(404, 'PLAN_NOT_FOUND', PLAN_NOT_FOUND_MESSAGE);
  return { ...plan, basePriceId: plan.stripe_price_id, extraPriceId: plan.stripe_extra_price_id };
}

/**
 * Stripe's hosted checkout for a plan, once the firm's billing info is on its customer. The webhook (checkout.session.completed and the subscription's
 * events) links the new subscription to the firm: nothing is written here but the customer.
 */
export async function startCheckout({ db, stripe, publicUrl, log }: CheckoutDeps, caller: BillingCaller, planRef: string): Promise<{ url: string }> {
  const plan = await offeredPlan(db, planRef);
  if (runningSubscriptionId(await firmSubscription(db, caller.groupId))) throw new HttpError(409, 'ALREADY_SUBSCRIBED', ALREADY_SUBSCRIBED_MESSAGE);
  // The billing info is saved on the customer first, so the first invoice carries the name and NIF.
  await requireBillingInfo(db, caller.groupId);
  const customer = await ensureCustomer(db, stripe, log, caller);
  // One payment page at a time: pages opened before (another tab, a double click) are expired, so two
  // cannot both be paid. (Two at the very same instant are caught by the webhook: subscription-state.ts.)
  await atStripe(log, 'cerrar los pagos que quedaron abiertos', async () => {
    for await (const open of stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 })) {
      if (open.mode === 'subscription') await stripe.checkout.sessions.expire(open.id);
    }
  });
  const url = await atStripe(log, 'abrir el pago del plan', async () =>
    hostedUrl(await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      // The metered price takes no quantity: the meter's events are the usage.
      line_items: [{ price: plan.basePriceId, quantity: 1 }, { price: plan.extraPriceId }],
      success_url: `${publicUrl}/payments?pago=ok&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${publicUrl}/payments?pago=cancelado`,
      client_reference_id: caller.groupId,
      subscription_data: { metadata: { group_id: caller.groupId } },
      locale: 'es',
    })),
  );
  return { url };
}

/** Stripe's hosted page to add a card (a SetupIntent underneath); the card is not made the default. */
export async function startCardSetup({ db, stripe, publicUrl, log }: CheckoutDeps, caller: BillingCaller): Promise<{ url: string }> {
  const customer = await ensureCustomer(db, stripe, log, caller);
  const url = await atStripe(log, 'abrir la página para añadir una tarjeta', async () =>
    hostedUrl(await stripe.checkout.sessions.create({
      mode: 'setup',
      customer,
      currency: 'eur',
      // API 2026-10 dropped payment_method_types on create; this is its filter form: cards only.
      allowed_payment_method_types: ['card'],
      success_url: `${publicUrl}/payments?tarjeta=ok`,
      cancel_url: `${publicUrl}/payments?tarjeta=cancelada`,
      client_reference_id: caller.groupId,
      locale: 'es',
    })),
  );
  return { url };
}

/** A hosted session always has a url; without one the answer is not one we can use. */
function hostedUrl({ url }: { url: string | null }): string {
  if (!url) throw new Error('Stripe no ha devuelto la dirección de la página de pago');
  return url;
}
