/**
 * What the stand-in has from the start, as AutoAsesor's Stripe account has it: the meter for usage past
 * a plan's limit, the products "Básico" and "Profesional", and their monthly prices (a licensed base and
 * a metered extra each). Fixed ids, so tests and e2e specs can name them.
 */
export const API_VERSION = '2026-10-28.endive';

export const STANDIN_CATALOGUE = {
  meter: { id: 'mtr_standin_extra_slans', eventName: 'autoasesor_extra_slans', displayName: 'Slans extra' },
  products: {
    basic: { id: 'prod_standin_basic', name: 'Básico' },
    pro: { id: 'prod_standin_pro', name: 'Profesional' },
  },
  prices: {
    basic: { id: 'price_standin_basic', lookupKey: 'autoasesor_basic', product: 'prod_standin_basic', unitAmount: 4900, metadata: { plan_ref: 'basic', included_slans: '2000' } },
    basicExtra: { id: 'price_standin_basic_extra', lookupKey: 'autoasesor_basic_extra', product: 'prod_standin_basic', unitAmountDecimal: '0.003', metadata: { plan_ref: 'basic', kind: 'extra' } },
    pro: { id: 'price_standin_pro', lookupKey: 'autoasesor_pro', product: 'prod_standin_pro', unitAmount: 14900, metadata: { plan_ref: 'pro', included_slans: '10000' } },
    proExtra: { id: 'price_standin_pro_extra', lookupKey: 'autoasesor_pro_extra', product: 'prod_standin_pro', unitAmountDecimal: '0.002', metadata: { plan_ref: 'pro', kind: 'extra' } },
  },
} as const;

/**
 * Test cards, as Stripe's test mode knows them. `failsLater`: attaches, but every charge fails
 * (4000000000000341); `declined`: refused at once (4000000000000002).
 */
export const TEST_CARDS: Record<string, { brand: string; declined?: true; failsLater?: true }> = {
  '4242424242424242': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', declined: true },
  '4000000000000341': { brand: 'visa', failsLater: true },
};
