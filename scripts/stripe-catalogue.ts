/**
 * AutoAsesor's catalogue in a Stripe account: `npm run stripe:catalogue` (or
 * `npx tsx scripts/stripe-catalogue.ts`) with STRIPE_SECRET_KEY set (and STRIPE_API_BASE to aim at the
 * stand-in, STRIPE_METER_EVENT for another meter name). It makes the billing meter for usage past a
 * plan's limit, the products "Básico" and "Profesional" and their four monthly prices, which the server
 * then reads into its plans (server/modules/billing/catalogue.ts). Idempotent: every price is looked up
 * by its lookup key and the meter by its event name first, so a second run creates nothing.
 */
import Stripe from 'stripe';
import { DEFAULT_METER_EVENT_NAME } from '../server/modules/billing/config.ts';

export interface CataloguePlan {
  ref: string;
  name: string;
  /** Cents per month. */
  unitAmount: number;
  includedSlans: number;
  /** Cents per thousandth of a slan: the meter counts thousandths so fractions of a slan bill exactly. */
  extraPerThousandth: string;
  lookupKey: string;
  extraLookupKey: string;
}

export interface Catalogue {
  meterEventName: string;
  plans: CataloguePlan[];
}

export const AUTOASESOR_CATALOGUE: Catalogue = {
  meterEventName: DEFAULT_METER_EVENT_NAME,
  plans: [
    { ref: 'basic', name: 'Básico', unitAmount: 4900, includedSlans: 2000, extraPerThousandth: '0.003', lookupKey: 'autoasesor_basic', extraLookupKey: 'autoasesor_basic_extra' },
    { ref: 'pro', name: 'Profesional', unitAmount: 14900, includedSlans: 10_000, extraPerThousandth: '0.002', lookupKey: 'autoasesor_pro', extraLookupKey: 'autoasesor_pro_extra' },
  ],
};

/** What a run found already there and what it made, by Stripe id. */
export interface CatalogueReport {
  found: string[];
  created: string[];
}

const idOf = (value: string | { id: string }): string => (typeof value === 'string' ? value : value.id);

async function ensureMeter(stripe: Stripe, eventName: string, report: CatalogueReport): Promise<string> {
  for await (const meter of stripe.billing.meters.list({ status: 'active', limit: 100 })) {
    if (meter.event_name === eventName) {
      report.found.push(meter.id);
      return meter.id;
    }
  }
  const meter = await stripe.billing.meters.create({
    display_name: 'Slans extra',
    event_name: eventName,
    default_aggregation: { formula: 'sum' },
    customer_mapping: { type: 'by_id', event_payload_key: 'stripe_customer_id' },
    value_settings: { event_payload_key: 'value' },
  });
  report.created.push(meter.id);
  return meter.id;
}

/** Makes what is missing of the catalogue; what exists (by lookup key, by event name) is left as it is. */
export async function ensureCatalogue(stripe: Stripe, catalogue: Catalogue = AUTOASESOR_CATALOGUE): Promise<CatalogueReport> {
  const report: CatalogueReport = { found: [], created: [] };
  const meterId = await ensureMeter(stripe, catalogue.meterEventName, report);
  const lookupKeys = catalogue.plans.flatMap((plan) => [plan.lookupKey, plan.extraLookupKey]);
  const existing = new Map<string, Stripe.Price>();
  for await (const price of stripe.prices.list({ lookup_keys: lookupKeys, active: true, limit: 100 })) if (price.lookup_key) existing.set(price.lookup_key, price);

  for (const plan of catalogue.plans) {
    const base = existing.get(plan.lookupKey);
    const extra = existing.get(plan.extraLookupKey);
    // A plan's prices share its product: reuse the one a price already names.
    const known = base ?? extra;
    let product = known ? idOf(known.product) : null;
    if (product) report.found.push(product);
    else {
      product = (await stripe.products.create({ name: plan.name, metadata: { plan_ref: plan.ref } }, { idempotencyKey: `autoasesor-product-${plan.lookupKey}` })).id;
      report.created.push(product);
    }

    if (base) report.found.push(base.id);
    else {
      const created = await stripe.prices.create({
        product,
        currency: 'eur',
        unit_amount: plan.unitAmount,
        recurring: { interval: 'month', usage_type: 'licensed' },
        lookup_key: plan.lookupKey,
        metadata: { plan_ref: plan.ref, included_slans: String(plan.includedSlans) },
      });
      report.created.push(created.id);
    }

    if (extra) report.found.push(extra.id);
    else {
      const created = await stripe.prices.create({
        product,
        currency: 'eur',
        unit_amount_decimal: Stripe.Decimal.from(plan.extraPerThousandth),
        recurring: { interval: 'month', usage_type: 'metered', meter: meterId },
        lookup_key: plan.extraLookupKey,
        metadata: { plan_ref: plan.ref, kind: 'extra' },
      });
      report.created.push(created.id);
    }
  }
  return report;
}

/** The SDK at Stripe, or at the endpoint STRIPE_API_BASE names (the stand-in). */
export function stripeFromEnv(env: Record<string, string | undefined>): Stripe {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key) throw new Error('Falta STRIPE_SECRET_KEY');
  const base = env.STRIPE_API_BASE?.trim();
  if (!base) return new Stripe(key, { maxNetworkRetries: 2 });
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(key, { maxNetworkRetries: 2, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol });
}

async function main(): Promise<number> {
  const stripe = stripeFromEnv(process.env);
  const meterEventName = process.env.STRIPE_METER_EVENT?.trim() || DEFAULT_METER_EVENT_NAME;
  const report = await ensureCatalogue(stripe, { ...AUTOASESOR_CATALOGUE, meterEventName });
  console.log(`Ya estaban: ${report.found.length ? report.found.join(', ') : 'nada'}`);
  console.log(`Creados: ${report.created.length ? report.created.join(', ') : 'nada'}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`No se ha podido preparar el catálogo en Stripe: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
