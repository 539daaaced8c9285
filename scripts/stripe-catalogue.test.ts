import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN_CATALOGUE, startStripeStandin, type StripeStandin } from '../standins/stripe/standin.ts';
import { AUTOASESOR_CATALOGUE, ensureCatalogue, stripeFromEnv } from './stripe-catalogue.ts';

let standin: StripeStandin;
beforeAll(async () => {
  standin = await startStripeStandin();
});
afterAll(async () => standin.close());

const stripeAtStandin = () => stripeFromEnv({ STRIPE_SECRET_KEY: standin.secretKey, STRIPE_API_BASE: standin.url });

describe('stripe-catalogue', () => {
  it('finds the whole catalogue already at the stand-in and creates nothing', async () => {
    const report = await ensureCatalogue(stripeAtStandin());
    expect(report.created).toEqual([]);
    const { meter, products, prices } = STANDIN_CATALOGUE;
    expect(report.found.sort()).toEqual(
      [meter.id, products.basic.id, prices.basic.id, prices.basicExtra.id, products.pro.id, prices.pro.id, prices.proExtra.id].sort(),
    );
  });

  it('creates what is missing once: the meter, the products and their base and metered prices', async () => {
    const stripe = stripeAtStandin();
    const other = {
      meterEventName: 'otro_medidor',
      plans: AUTOASESOR_CATALOGUE.plans.map((plan) => ({ ...plan, lookupKey: `otro_${plan.lookupKey}`, extraLookupKey: `otro_${plan.extraLookupKey}` })),
    };
    const first = await ensureCatalogue(stripe, other);
    expect(first.created).toHaveLength(7);
    const second = await ensureCatalogue(stripe, other);
    expect(second.created).toEqual([]);
    expect(second.found.sort()).toEqual(first.created.sort());

    const [extra] = (await stripe.prices.list({ lookup_keys: ['otro_autoasesor_pro_extra'] })).data;
    expect(extra?.metadata).toEqual({ plan_ref: 'pro', kind: 'extra' });
    expect(String(extra?.unit_amount_decimal)).toBe('0.002');
    expect(extra?.recurring).toMatchObject({ usage_type: 'metered', interval: 'month' });
    const [base] = (await stripe.prices.list({ lookup_keys: ['otro_autoasesor_pro'], expand: ['data.product'] })).data;
    expect(base).toMatchObject({ unit_amount: 14900, currency: 'eur', metadata: { plan_ref: 'pro', included_slans: '10000' }, product: { name: 'Profesional' } });
  });
});
