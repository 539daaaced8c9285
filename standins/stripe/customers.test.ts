/** The official SDK against the stand-in: catalogue, customers, tax ids, cards, errors and idempotency. */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN_CATALOGUE } from './catalogue.ts';
import { startSdkFixture, type SdkFixture } from './testing.ts';

let fixture: SdkFixture;
beforeAll(async () => {
  fixture = await startSdkFixture();
});
afterAll(() => fixture.standin.close());

describe('the catalogue', () => {
  it('lists active prices by lookup key with their products expanded', async () => {
    const prices = await fixture.stripe.prices.list({ active: true, lookup_keys: ['autoasesor_basic', 'autoasesor_pro_extra'], expand: ['data.product'], limit: 10 });
    expect(prices.object).toBe('list');
    expect(prices.data.map((price) => price.lookup_key).sort()).toEqual(['autoasesor_basic', 'autoasesor_pro_extra']);
    const basic = prices.data.find((price) => price.lookup_key === 'autoasesor_basic');
    expect(basic).toMatchObject({ id: STANDIN_CATALOGUE.prices.basic.id, unit_amount: 4900, currency: 'eur', metadata: { plan_ref: 'basic', included_slans: '2000' }, recurring: { interval: 'month', usage_type: 'licensed' } });
    expect((basic?.product as Stripe.Product).name).toBe('Básico');
    const extra = prices.data.find((price) => price.lookup_key === 'autoasesor_pro_extra');
    expect(extra).toMatchObject({ unit_amount: null, recurring: { usage_type: 'metered', meter: STANDIN_CATALOGUE.meter.id } });
    expect(String(extra?.unit_amount_decimal)).toBe('0.002');
  });

  it('has the meter and lets a bootstrap script add products and prices', async () => {
    const meters = await fixture.stripe.billing.meters.list({ status: 'active' });
    expect(meters.data[0]).toMatchObject({ event_name: 'autoasesor_extra_slans', customer_mapping: { type: 'by_id', event_payload_key: 'stripe_customer_id' }, default_aggregation: { formula: 'sum' } });
    const product = await fixture.stripe.products.create({ name: 'Despacho' });
    const price = await fixture.stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 29900, recurring: { interval: 'month' }, lookup_key: 'autoasesor_despacho' });
    expect(price).toMatchObject({ product: product.id, unit_amount: 29900, lookup_key: 'autoasesor_despacho' });
    await expect(fixture.stripe.prices.create({ product: product.id, currency: 'eur', unit_amount: 1, recurring: { interval: 'month' }, lookup_key: 'autoasesor_despacho' })).rejects.toThrow(Stripe.errors.StripeInvalidRequestError);
  });
});

describe('customers', () => {
  it('are created and updated, with Spanish tax ids added, listed and deleted', async () => {
    const customer = await fixture.stripe.customers.create({ name: 'Asesoría López', email: 'info@lopez.test', address: { line1: 'Calle Mayor 1', city: 'Madrid', postal_code: '28001', country: 'ES' }, metadata: { group_id: '3' } });
    expect(customer).toMatchObject({ object: 'customer', name: 'Asesoría López', address: { city: 'Madrid', line2: null }, metadata: { group_id: '3' }, invoice_settings: { default_payment_method: null } });
    const updated = await fixture.stripe.customers.update(customer.id, { email: 'pagos@lopez.test', metadata: { group_id: '', firm: 'x' } });
    expect(updated).toMatchObject({ email: 'pagos@lopez.test', metadata: { firm: 'x' } });

    const taxId = await fixture.stripe.customers.createTaxId(customer.id, { type: 'es_cif', value: 'b12345678' });
    expect(taxId).toMatchObject({ object: 'tax_id', type: 'es_cif', value: 'B12345678', customer: customer.id, country: 'ES' });
    await expect(fixture.stripe.customers.createTaxId(customer.id, { type: 'es_cif', value: '123' })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'tax_id_invalid' });
    expect((await fixture.stripe.customers.listTaxIds(customer.id)).data.map((entry) => entry.id)).toEqual([taxId.id]);
    expect(await fixture.stripe.customers.deleteTaxId(customer.id, taxId.id)).toMatchObject({ id: taxId.id, deleted: true });
    // A personal NIF and a NIE are es_cif too.
    expect(await fixture.stripe.customers.createTaxId(customer.id, { type: 'es_cif', value: '12345678Z' })).toMatchObject({ value: '12345678Z' });
    expect(await fixture.stripe.customers.createTaxId(customer.id, { type: 'es_cif', value: 'X1234567L' })).toMatchObject({ value: 'X1234567L' });
    expect((await fixture.stripe.customers.listTaxIds(customer.id)).data.map((entry) => entry.value).sort()).toEqual(['12345678Z', 'X1234567L']);
  });

  it('save a card through a setup checkout, and lose it when it is detached', async () => {
    const { stripe, standin, received } = fixture;
    const customer = await stripe.customers.create({ name: 'Asesoría Ruiz' });
    const session = await stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, currency: 'eur', success_url: 'http://app.test/ok?s={CHECKOUT_SESSION_ID}', cancel_url: 'http://app.test/ko' });
    expect(session.url).toBe(`${standin.url}/c/pay/${session.id}`);
    const from = received.length;
    expect(await standin.completeCheckout(session.id, '5555555555554444')).toEqual({ redirectUrl: `http://app.test/ok?s=${session.id}` });
    await standin.settled();
    expect(received.slice(from).map((event) => event.type)).toEqual(['setup_intent.succeeded', 'checkout.session.completed']);

    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent'] });
    const setupIntent = completed.setup_intent as Stripe.SetupIntent;
    expect(completed).toMatchObject({ status: 'complete', mode: 'setup' });
    expect(setupIntent.status).toBe('succeeded');
    const card = await stripe.paymentMethods.retrieve(String(setupIntent.payment_method));
    expect(card).toMatchObject({ customer: customer.id, card: { brand: 'mastercard', last4: '4444' } });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ invoice_settings: { default_payment_method: null } });
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data.map((entry) => entry.id)).toEqual([card.id]);

    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    expect(await stripe.paymentMethods.detach(card.id)).toMatchObject({ id: card.id, customer: null });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ invoice_settings: { default_payment_method: null } });
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data).toEqual([]);
    await standin.settled();
    expect(received.at(-1)?.type).toBe('payment_method.detached');
  });
});

describe('errors and idempotency', () => {
  it('refuses a wrong key with StripeAuthenticationError', async () => {
    const url = new URL(fixture.standin.url);
    const wrong = new Stripe('sk_test_wrong', { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrong.customers.create({ name: 'x' })).rejects.toThrow(Stripe.errors.StripeAuthenticationError);
  });

  it('answers an unknown id with StripeInvalidRequestError (404, resource_missing)', async () => {
    const error = await fixture.stripe.customers.retrieve('cus_doesnotexist').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(fixture.stripe.checkout.sessions.create({ mode: 'subscription', customer: 'cus_nope', line_items: [{ price: STANDIN_CATALOGUE.prices.basic.id, quantity: 1 }], success_url: 'http://app.test' })).rejects.toMatchObject({ statusCode: 400, param: 'customer' });
  });

  it('replays the stored answer for a repeated Idempotency-Key, and refuses it with other parameters', async () => {
    const first = await fixture.stripe.customers.create({ name: 'Una vez' }, { idempotencyKey: 'create-once' });
    const again = await fixture.stripe.customers.create({ name: 'Una vez' }, { idempotencyKey: 'create-once' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    await expect(fixture.stripe.customers.create({ name: 'Otra' }, { idempotencyKey: 'create-once' })).rejects.toThrow(Stripe.errors.StripeIdempotencyError);
  });
});
