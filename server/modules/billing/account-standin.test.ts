/**
 * The billing account against the Stripe stand-in (standins/stripe) through the real SDK: plans from its
 * prices, checkout and card pages, the cards. Webhooks stay off (kept at the stand-in): the rows they
 * would write are arranged, so these tests see the account alone.
 */
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALREADY_SUBSCRIBED_MESSAGE, BILLING_INFO_REQUIRED_MESSAGE, billingPaths, LAST_CARD_MESSAGE, OWNER_ONLY_MESSAGE, paymentMethodsResponseSchema, plansResponseSchema, subscriptionFullSchema } from '#shared/api/billing.ts';
import type { Kysely } from 'kysely';
import { STANDIN_CATALOGUE, type StripeStandin } from '../../../standins/stripe/standin.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, type CookieJar, type TestServer } from '../../test/harness.ts';
import { closeStandinFirm, registerMember, saveBillingInfo, sessionIdOf, startQuietStandin, startStandinFirm, subscribe, TEST_BILLING_INFO } from './account-test-support.ts';

let standin: StripeStandin;
let stripe: Stripe;
let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let anaGroup: string;
let syncPlans: () => Promise<void>;

beforeAll(async () => ({ standin, stripe } = await startQuietStandin()));
afterAll(async () => standin.close());
beforeEach(async () => ({ server, db, ana, anaGroup, syncPlans } = await startStandinFirm(standin, stripe)));
afterEach(async () => closeStandinFirm({ server, db }));

const customerOf = async (groupId: string) => (await db.selectFrom('subscriptions').select('stripe_customer_id').where('group_id', '=', groupId).executeTakeFirstOrThrow()).stripe_customer_id;

describe('plans from Stripe prices', () => {
  it('names, prices, included slans and € per slan come from the stand-in’s catalogue, idempotently', async () => {
    await db.insertInto('plans').values({ id: 'legacy-plan', ref: 'legacy', name: 'Antiguo', usage_limit: 1, base_price: 9, extra_usage_price: 1, trial_days: null, created_at: new Date().toISOString() }).execute();
    await syncPlans();
    await syncPlans();
    const plans = plansResponseSchema.parse((await ana.get(billingPaths.prices)).json()).items;
    expect(plans.map((plan) => [plan.ref, plan.name, plan.basePrice, plan.usageLimit, plan.extraUsagePrice, plan.current])).toEqual([
      ['basic', 'Básico', 49, 2000, 0.03, false],
      ['pro', 'Profesional', 149, 10000, 0.02, false],
    ]);
    const rows = await db.selectFrom('plans').select(['ref', 'stripe_price_id', 'stripe_extra_price_id', 'available']).orderBy('ref').execute();
    expect(rows).toEqual([
      { ref: 'basic', stripe_price_id: STANDIN_CATALOGUE.prices.basic.id, stripe_extra_price_id: STANDIN_CATALOGUE.prices.basicExtra.id, available: 1 },
      { ref: 'legacy', stripe_price_id: null, stripe_extra_price_id: null, available: 0 },
      { ref: 'pro', stripe_price_id: STANDIN_CATALOGUE.prices.pro.id, stripe_extra_price_id: STANDIN_CATALOGUE.prices.proExtra.id, available: 1 },
      { ref: 'trial', stripe_price_id: null, stripe_extra_price_id: null, available: 1 },
    ]);
  });
});

describe('checkout and the card page', () => {
  it('asks for the billing info before the first checkout (409, nothing at Stripe), and the first invoice then carries it', async () => {
    const refused = await ana.post(billingPaths.checkoutSession, { planRef: 'basic' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'BILLING_INFO_REQUIRED', message: BILLING_INFO_REQUIRED_MESSAGE });
    expect(await customerOf(anaGroup)).toBeNull();
    expect(await stripe.checkout.sessions.list({ limit: 100 }).then((list) => list.data.filter((session) => session.client_reference_id === anaGroup))).toEqual([]);

    await saveBillingInfo(ana);
    const { subscriptionId } = await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    const [first, ...others] = (await stripe.invoices.list({ subscription: subscriptionId })).data;
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      billing_reason: 'subscription_create',
      customer_name: TEST_BILLING_INFO.name,
      customer_email: TEST_BILLING_INFO.email,
      customer_address: { line1: TEST_BILLING_INFO.addressLine1, postal_code: TEST_BILLING_INFO.postalCode, city: TEST_BILLING_INFO.city, country: 'ES' },
      customer_tax_ids: [{ type: 'es_cif', value: TEST_BILLING_INFO.taxId }],
    });
  });

  it('opens the hosted checkout for the plan, with one customer for the firm, and 409 once subscribed', async () => {
    await saveBillingInfo(ana);
    const response = await ana.post(billingPaths.checkoutSession, { planRef: 'basic' });
    expect(response.statusCode).toBe(200);
    const { url } = response.json() as { url: string };
    expect(url.startsWith(`${standin.url}/c/pay/`)).toBe(true);
    const session = await stripe.checkout.sessions.retrieve(sessionIdOf(url));
    const customerId = await customerOf(anaGroup);
    expect(session).toMatchObject({ mode: 'subscription', customer: customerId, client_reference_id: anaGroup, locale: 'es', cancel_url: 'http://app.test/payments?pago=cancelado' });
    expect(session.success_url).toBe('http://app.test/payments?pago=ok&session_id={CHECKOUT_SESSION_ID}');
    const customer = await stripe.customers.retrieve(customerId ?? '');
    expect(customer).toMatchObject({ email: TEST_BILLING_INFO.email, name: TEST_BILLING_INFO.name, metadata: { group_id: anaGroup } });

    // A second attempt reuses the firm's customer, and the first page can no longer be paid.
    const again = await ana.post(billingPaths.checkoutSession, { planRef: 'pro' });
    expect((await stripe.checkout.sessions.retrieve(sessionIdOf((again.json() as { url: string }).url))).customer).toBe(customerId);
    expect((await stripe.checkout.sessions.retrieve(sessionIdOf(url))).status).toBe('expired');

    await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    const refused = await ana.post(billingPaths.checkoutSession, { planRef: 'pro' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ALREADY_SUBSCRIBED', message: ALREADY_SUBSCRIBED_MESSAGE });
    const full = subscriptionFullSchema.parse((await ana.get(billingPaths.subscription)).json());
    expect(full).toMatchObject({ ref: 'basic', name: 'Básico', paymentsEnabled: true, canManage: true, stripeSub: { status: 'active', cancelAt: null } });
    expect(full.stripePaymentMethods).toMatchObject([{ brand: 'visa', last4: '4242', isDefault: true }]);
  });

  it('refuses an unknown or withdrawn plan with 404, and bad input with 400', async () => {
    expect((await ana.post(billingPaths.checkoutSession, { planRef: 'trial' })).statusCode).toBe(404);
    expect((await ana.post(billingPaths.checkoutSession, { planRef: 'oro' })).json()).toMatchObject({ code: 'PLAN_NOT_FOUND' });
    expect((await ana.post(billingPaths.checkoutSession, { planRef: '' })).statusCode).toBe(400);
    expect(await customerOf(anaGroup)).toBeNull();
  });

  it('opens the hosted page to add a card (setup mode)', async () => {
    const response = await ana.post(billingPaths.setupIntent);
    expect(response.statusCode).toBe(200);
    const session = await stripe.checkout.sessions.retrieve(sessionIdOf((response.json() as { url: string }).url));
    expect(session).toMatchObject({ mode: 'setup', customer: await customerOf(anaGroup), success_url: 'http://app.test/payments?tarjeta=ok', cancel_url: 'http://app.test/payments?tarjeta=cancelada' });
  });

  it('keeps one customer when two pages are opened at once', async () => {
    const [first, second] = await Promise.all([ana.post(billingPaths.setupIntent), ana.post(billingPaths.setupIntent)]);
    const customers = await Promise.all([first, second].map(async (response) => (await stripe.checkout.sessions.retrieve(sessionIdOf((response.json() as { url: string }).url))).customer));
    expect(customers[0]).toBe(await customerOf(anaGroup));
    expect(customers[1]).toBe(customers[0]);
  });

  it('lets a member read but answers 403 to every change, with nothing asked of Stripe', async () => {
    const luis = await registerMember(server, db, 'luis@asesoria.es', 'ana@asesoria.es');
    const eventsBefore = standin.events().length;
    const changes = [
      () => luis.post(billingPaths.checkoutSession, { planRef: 'basic' }),
      () => luis.post(billingPaths.setupIntent),
      () => luis.request({ method: 'DELETE', url: '/api/subscriptions/payment-methods/pm_1' }),
      () => luis.request({ method: 'PUT', url: '/api/subscriptions/payment-methods/pm_1/default' }),
      () => luis.put(billingPaths.billingInfo, { name: 'X', taxId: '12345678Z', email: 'x@x.es', addressLine1: 'C', postalCode: '28001', city: 'M', province: 'M', country: 'ES' }),
      () => luis.post(billingPaths.nextPhase, { planRef: 'pro' }),
      () => luis.request({ method: 'DELETE', url: billingPaths.nextPhase }),
      () => luis.post(billingPaths.cancel),
      () => luis.post(billingPaths.resume),
    ];
    for (const change of changes) {
      const response = await change();
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'OWNER_ONLY', message: OWNER_ONLY_MESSAGE });
    }
    expect(await customerOf(anaGroup)).toBeNull();
    expect(standin.events().length).toBe(eventsBefore);
    expect(server.countRows('billing_profiles')).toBe(0);
    expect((await luis.get(billingPaths.subscription)).json()).toMatchObject({ canManage: false, paymentsEnabled: true });
    expect((await luis.get(billingPaths.prices)).statusCode).toBe(200);
  });
});

describe('cards', () => {
  const cardsOf = async (jar: CookieJar) => paymentMethodsResponseSchema.parse((await jar.get(billingPaths.paymentMethods)).json()).items;

  it('lists, makes default (customer and subscription), removes, and keeps the last card of a running plan', async () => {
    const { customerId, subscriptionId } = await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    const setup = (await ana.post(billingPaths.setupIntent)).json() as { url: string };
    await standin.completeCheckout(sessionIdOf(setup.url), '5555555555554444');

    const cards = await cardsOf(ana);
    expect(cards.map((card) => [card.brand, card.last4, card.isDefault])).toEqual(expect.arrayContaining([['visa', '4242', true], ['mastercard', '4444', false]]));
    const visa = cards.find((card) => card.brand === 'visa')?.id ?? '';
    const mastercard = cards.find((card) => card.brand === 'mastercard')?.id ?? '';

    expect((await ana.request({ method: 'PUT', url: `/api/subscriptions/payment-methods/${mastercard}/default` })).statusCode).toBe(204);
    expect((await cardsOf(ana)).find((card) => card.isDefault)?.id).toBe(mastercard);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).default_payment_method).toBe(mastercard);
    const customer = await stripe.customers.retrieve(customerId);
    expect(!customer.deleted && customer.invoice_settings.default_payment_method).toBe(mastercard);

    // Removing the paying card leaves the other one paying.
    expect((await ana.request({ method: 'DELETE', url: `/api/subscriptions/payment-methods/${mastercard}` })).statusCode).toBe(204);
    expect((await cardsOf(ana)).map((card) => [card.id, card.isDefault])).toEqual([[visa, true]]);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).default_payment_method).toBe(visa);

    const last = await ana.request({ method: 'DELETE', url: `/api/subscriptions/payment-methods/${visa}` });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'LAST_CARD', message: LAST_CARD_MESSAGE });
    expect(await cardsOf(ana)).toHaveLength(1);
  });

  it('answers 404 for another firm’s card, and leaves it attached', async () => {
    await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    const [visa] = await cardsOf(ana);
    const eva = await registerUser(server.app, 'eva@gestoria.es', 'Eva Ruiz');
    expect((await eva.request({ method: 'DELETE', url: `/api/subscriptions/payment-methods/${visa?.id}` })).statusCode).toBe(404);
    await eva.post(billingPaths.setupIntent); // now Eva's firm has a customer of its own
    expect((await eva.request({ method: 'DELETE', url: `/api/subscriptions/payment-methods/${visa?.id}` })).json()).toMatchObject({ code: 'PAYMENT_METHOD_NOT_FOUND' });
    expect((await eva.request({ method: 'PUT', url: `/api/subscriptions/payment-methods/${visa?.id}/default` })).statusCode).toBe(404);
    expect(await cardsOf(eva)).toEqual([]);
    expect(await cardsOf(ana)).toHaveLength(1);
  });
});
