import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import { TRIAL_PLAN_REF } from '../subscriptions/service.ts';
import type { StripeClient } from './stripe-client.ts';

/** A plan as Stripe's prices describe it. */
export interface PricedPlan {
  ref: string;
  name: string;
  /** Euros per period. */
  basePrice: number;
  usageLimit: number;
  /** Euros per slan past the limit. */
  extraUsagePrice: number;
  stripePriceId: string;
  stripeExtraPriceId: string;
}

/** Rounds away binary noise (0.003 × 10 = 0.030000000000000002) without losing real precision. */
const tidy = (value: number): number => Math.round(value * 1e6) / 1e6;

function productName(price: Stripe.Price): string | null {
  const product = price.product;
  if (typeof product === 'string' || product.deleted) return null;
  return product.name;
}

/**
 * The plans a list of prices offers. Only prices carrying metadata.plan_ref count: the licensed one is
 * the base (its product names the plan; metadata.included_slans the slans a period gives), the one with
 * metadata.kind 'extra' is the metered usage past the limit, priced in cents per thousandth of a slan
 * (the meter counts thousandths so fractions of a slan are billed exactly): € per slan = decimal × 1000 / 100.
 * A plan missing either price, or a figure, is left out (and said in `problems`): checkout needs both.
 */
export function plansFromPrices(prices: readonly Stripe.Price[]): { plans: PricedPlan[]; problems: string[] } {
  const byRef = new Map<string, { base?: Stripe.Price; extra?: Stripe.Price }>();
  for (const price of prices) {
    const ref = price.metadata.plan_ref?.trim();
    if (!ref || ref === TRIAL_PLAN_REF) continue;
    const entry = byRef.get(ref) ?? {};
    if (price.metadata.kind === 'extra') entry.extra = price;
    else entry.base = price;
    byRef.set(ref, entry);
  }
  const plans: PricedPlan[] = [];
  const problems: string[] = [];
  for (const [ref, { base, extra }] of byRef) {
    const name = base && productName(base);
    const included = Number(base?.metadata.included_slans);
    const perThousandth = Number(extra?.unit_amount_decimal === null || extra === undefined ? Number.NaN : String(extra.unit_amount_decimal));
    if (!base || !extra || !name || base.unit_amount === null || !Number.isFinite(included) || !Number.isFinite(perThousandth)) {
      problems.push(`el plan '${ref}' necesita un precio base con producto, unit_amount e included_slans y un precio 'extra' con unit_amount_decimal`);
      continue;
    }
    plans.push({
      ref,
      name,
      basePrice: tidy(base.unit_amount / 100),
      usageLimit: included,
      extraUsagePrice: tidy((perThousandth * 1000) / 100),
      stripePriceId: base.id,
      stripeExtraPriceId: extra.id,
    });
  }
  return { plans, problems };
}

/**
 * Stripe's active prices into the plans table, by ref: the priced plans are written and offered, the
 * other paid plans are withdrawn (kept, since subscriptions point at them). The trial is never touched.
 * Idempotent, and safe with two servers at once: the upsert rides on plans.ref's unique key.
 */
export async function syncPlansFromStripe(db: Kysely<Database>, stripe: StripeClient, now: Date, log: FastifyBaseLogger): Promise<PricedPlan[]> {
  const prices: Stripe.Price[] = [];
  for await (const price of stripe.prices.list({ active: true, expand: ['data.product'], limit: 100 })) prices.push(price);
  const { plans, problems } = plansFromPrices(prices);
  for (const problem of problems) log.warn(`Planes de Stripe: ${problem}`);
  if (plans.length === 0) {
    // An account without the catalogue yet (scripts/stripe-catalogue.ts) must not empty the shop.
    log.warn('Stripe no ofrece ningún precio con metadata.plan_ref: los planes se quedan como estaban');
    return plans;
  }
  for (const plan of plans) {
    const figures = {
      name: plan.name,
      base_price: plan.basePrice,
      usage_limit: plan.usageLimit,
      extra_usage_price: plan.extraUsagePrice,
      stripe_price_id: plan.stripePriceId,
      stripe_extra_price_id: plan.stripeExtraPriceId,
      available: 1,
    };
    await db
      .insertInto('plans')
      .values({ id: randomUUID(), ref: plan.ref, trial_days: null, created_at: now.toISOString(), ...figures })
      .onConflict((conflict) => conflict.column('ref').doUpdateSet(figures))
      .execute();
  }
  await db
    .updateTable('plans')
    .set({ available: 0 })
    .where('ref', '<>', TRIAL_PLAN_REF)
    .where('ref', 'not in', plans.map((plan) => plan.ref))
    .execute();
  return plans;
}
