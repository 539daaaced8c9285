import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  billingPaths, invoicesResponseSchema, PAYMENTS_NOT_CONFIGURED_MESSAGE, plansResponseSchema, STRIPE_UNAVAILABLE_MESSAGE, subscriptionFullSchema,
} from '#shared/api/billing.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { arrangeSubscription, groupOf, registerMember } from './account-test-support.ts';
import { plansFromPrices } from './catalogue.ts';

const GOOD_INFO = { name: 'Asesoría Pérez SL', taxId: 'B-12345674', email: 'facturas@asesoria.es', addressLine1: 'Calle Mayor 1', postalCode: '28013', city: 'Madrid', province: 'Madrid', country: 'ES' };

/** A price as the SDK types it, with only what the catalogue reads. */
function price(fields: { id: string; metadata: Record<string, string>; unit_amount?: number | null; unit_amount_decimal?: string | null; product?: string }): Stripe.Price {
  return {
    id: fields.id,
    metadata: fields.metadata,
    unit_amount: fields.unit_amount ?? null,
    unit_amount_decimal: fields.unit_amount_decimal ?? null,
    product: { id: `prod_${fields.id}`, object: 'product', name: fields.product ?? 'Básico', deleted: undefined },
  } as unknown as Stripe.Price;
}

describe('plansFromPrices', () => {
  it('reads a plan from its base and metered prices: € from cents, € per slan from cents per thousandth', () => {
    const { plans, problems } = plansFromPrices([
      price({ id: 'price_pro', metadata: { plan_ref: 'pro', included_slans: '10000' }, unit_amount: 14900, product: 'Profesional' }),
      price({ id: 'price_pro_extra', metadata: { plan_ref: 'pro', kind: 'extra' }, unit_amount_decimal: '0.002' }),
      price({ id: 'price_other', metadata: {}, unit_amount: 100 }),
    ]);
    expect(problems).toEqual([]);
    expect(plans).toEqual([{ ref: 'pro', name: 'Profesional', basePrice: 149, usageLimit: 10_000, extraUsagePrice: 0.02, stripePriceId: 'price_pro', stripeExtraPriceId: 'price_pro_extra' }]);
  });

  it('leaves out a plan without its metered price, and never reads the trial', () => {
    const { plans, problems } = plansFromPrices([
      price({ id: 'price_basic', metadata: { plan_ref: 'basic', included_slans: '2000' }, unit_amount: 4900 }),
      price({ id: 'price_trial', metadata: { plan_ref: 'trial', included_slans: '500' }, unit_amount: 0 }),
    ]);
    expect(plans).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("'basic'");
  });
});

let server: TestServer;
let db: ReturnType<typeof connectDatabase>;
let ana: CookieJar;

async function start(billing: Parameters<typeof startTestServer>[0]): Promise<void> {
  server = await startTestServer({ billingPlansIntervalMs: 0, billingUsageIntervalMs: 0, ...billing });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
}

describe('the billing API', () => {
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  describe('billing without Stripe', () => {
    beforeEach(() => start({}));

    it('answers the reads from the database', async () => {
      const plans = plansResponseSchema.parse((await ana.get(billingPaths.prices)).json());
      expect(plans.items.map((plan) => [plan.ref, plan.name, plan.basePrice, plan.usageLimit, plan.extraUsagePrice, plan.current])).toEqual([
        ['basic', 'Básico', 49, 2000, 0.03, false],
        ['pro', 'Profesional', 149, 10000, 0.02, false],
      ]);

      const full = subscriptionFullSchema.parse((await ana.get(billingPaths.subscription)).json());
      expect(full).toMatchObject({ ref: 'trial', name: 'Prueba', trialing: true, stripeSub: null, stripePaymentMethods: [], paymentsEnabled: false, canManage: true, scheduleSubNextPhaseRef: null });

      expect((await ana.get(billingPaths.paymentMethods)).json()).toEqual({ items: [] });
      expect(invoicesResponseSchema.parse((await ana.get(billingPaths.invoices)).json()).items).toEqual([]);
      const info = await ana.get(billingPaths.billingInfo);
      expect([info.statusCode, info.json()]).toEqual([200, null]);
    });

    it('lists the invoices the webhooks stored, newest first, in euros', async () => {
      const groupId = await groupOf(db, 'ana@asesoria.es');
      const invoice = { group_id: groupId, status: 'paid' as const, currency: 'eur', amount_due: 0, period_start: null, period_end: null, hosted_invoice_url: null, payment_failed_at: null, updated_at: '2026-11-01T00:00:00.000Z' };
      await db
        .insertInto('billing_invoices')
        .values([
          { ...invoice, id: 'in_old', number: 'A-0001', total: 4900, amount_paid: 4900, invoice_pdf: 'https://stripe.test/in_old.pdf', created_at: '2026-10-01T00:00:00.000Z' },
          { ...invoice, id: 'in_new', number: 'A-0002', total: 5234, amount_paid: 5234, invoice_pdf: null, created_at: '2026-11-01T00:00:00.000Z' },
        ])
        .execute();
      const other = await registerUser(server.app, 'otra@asesoria.es');
      const items = invoicesResponseSchema.parse((await ana.get(billingPaths.invoices)).json()).items;
      expect(items.map((item) => [item.id, item.total, item.pdfUrl])).toEqual([
        ['in_new', 52.34, null],
        ['in_old', 49, 'https://stripe.test/in_old.pdf'],
      ]);
      expect((await other.get(billingPaths.invoices)).json()).toEqual({ items: [] });
    });

    it('answers 409 to every change, and the member still reads', async () => {
      const changes = [
        () => ana.post(billingPaths.checkoutSession, { planRef: 'basic' }),
        () => ana.post(billingPaths.setupIntent),
        () => ana.request({ method: 'DELETE', url: '/api/subscriptions/payment-methods/pm_1' }),
        () => ana.request({ method: 'PUT', url: '/api/subscriptions/payment-methods/pm_1/default' }),
        () => ana.put(billingPaths.billingInfo, GOOD_INFO),
        () => ana.post(billingPaths.nextPhase, { planRef: 'pro' }),
        () => ana.request({ method: 'DELETE', url: billingPaths.nextPhase }),
        () => ana.post(billingPaths.cancel),
        () => ana.post(billingPaths.resume),
      ];
      for (const change of changes) {
        const response = await change();
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ code: 'PAYMENTS_NOT_CONFIGURED', message: PAYMENTS_NOT_CONFIGURED_MESSAGE });
      }
      expect(server.countRows('billing_profiles')).toBe(0);

      const luis = await registerMember(server, db, 'luis@asesoria.es', 'ana@asesoria.es');
      expect(subscriptionFullSchema.parse((await luis.get(billingPaths.subscription)).json()).canManage).toBe(false);
    });

    it('needs a session', async () => {
      expect((await server.app.inject({ method: 'GET', url: billingPaths.subscription })).statusCode).toBe(401);
      expect((await server.app.inject({ method: 'POST', url: billingPaths.checkoutSession, payload: { planRef: 'basic' } })).statusCode).toBe(401);
    });
  });

  describe('billing when Stripe does not answer', () => {
    // Nothing listens on port 9 of this machine: every call fails to connect (after the SDK's retries).
    const unreachable = { secretKey: 'sk_test_unreachable', webhookSecret: 'whsec_unreachable', api: { host: '127.0.0.1', port: 9, protocol: 'http' as const }, meterEventName: 'autoasesor_extra_slans' };
    beforeEach(() => start({ billing: unreachable }));

    it('answers 502 with a log line, and writes nothing', async () => {
      await db.updateTable('plans').set({ stripe_price_id: 'price_basic', stripe_extra_price_id: 'price_basic_extra' }).where('ref', '=', 'basic').execute();
      // The billing info a checkout needs first, as an earlier save would have left it.
      const anaGroup = await groupOf(db, 'ana@asesoria.es');
      const profile = { name: GOOD_INFO.name, tax_id: 'B12345674', email: GOOD_INFO.email, address_line1: GOOD_INFO.addressLine1, address_line2: null, postal_code: GOOD_INFO.postalCode, city: GOOD_INFO.city, province: GOOD_INFO.province, country: 'ES', updated_by: null, updated_at: new Date().toISOString() };
      await db.insertInto('billing_profiles').values({ group_id: anaGroup, ...profile }).execute();
      const checkout = await ana.post(billingPaths.checkoutSession, { planRef: 'basic' });
      expect(checkout.statusCode).toBe(502);
      expect(checkout.json()).toMatchObject({ code: 'STRIPE_UNAVAILABLE', message: STRIPE_UNAVAILABLE_MESSAGE });
      expect(server.logLines().some((line) => line.msg === 'Stripe no ha podido crear el cliente')).toBe(true);

      const groupId = await groupOf(db, 'ana@asesoria.es');
      expect((await db.selectFrom('subscriptions').select('stripe_customer_id').where('group_id', '=', groupId).executeTakeFirstOrThrow()).stripe_customer_id).toBeNull();

      await arrangeSubscription(db, groupId, { customerId: 'cus_known' });
      expect((await ana.put(billingPaths.billingInfo, { ...GOOD_INFO, name: 'Otro nombre' })).statusCode).toBe(502);
      expect((await db.selectFrom('billing_profiles').select('name').where('group_id', '=', groupId).executeTakeFirstOrThrow()).name).toBe(GOOD_INFO.name);
      expect((await ana.get(billingPaths.subscription)).statusCode).toBe(502);
    });
  });
});
