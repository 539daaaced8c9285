/** Checkout, periods, plan changes, failed payments and metered usage, through the official SDK and verified webhooks. */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN_CATALOGUE } from './catalogue.ts';
import { startSdkFixture, type SdkFixture } from './testing.ts';

const { prices } = STANDIN_CATALOGUE;
const BASIC = [prices.basic.id, prices.basicExtra.id] as const;
const PRO = [prices.pro.id, prices.proExtra.id] as const;
const unix = (iso: string) => Date.parse(iso) / 1000;

let fixture: SdkFixture;
beforeAll(async () => {
  fixture = await startSdkFixture();
});
afterAll(() => fixture.standin.close());

const typesSince = async (from: number) => {
  await fixture.standin.settled();
  return fixture.received.slice(from).map((event) => event.type);
};

describe('a subscription checkout', () => {
  it('sends the events in Stripe order, signed so constructEvent accepts them', async () => {
    const from = fixture.received.length;
    const { session, subscription, customer } = await fixture.subscribe(BASIC);
    expect(await typesSince(from)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded']);
    const completed = fixture.received[from]?.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ id: session.id, mode: 'subscription', status: 'complete', payment_status: 'paid', subscription: subscription.id, client_reference_id: '7', customer: customer.id });
    expect(fixture.received[from]).toMatchObject({ object: 'event', api_version: '2026-10-28.endive', livemode: false });
  });

  it('leaves a subscription whose periods live on its items, and a paid invoice with a PDF', async () => {
    const { subscription, customer } = await fixture.subscribe(BASIC, '5555555555554444');
    const start = unix('2026-11-02T10:00:00Z');
    expect(subscription).toMatchObject({ status: 'active', customer: customer.id, metadata: { group_id: '7' }, cancel_at_period_end: false, schedule: null });
    expect(subscription.items.data.map((item) => [item.price.id, item.quantity, item.current_period_start, item.current_period_end])).toEqual([
      [prices.basic.id, 1, start, unix('2026-12-02T10:00:00Z')],
      [prices.basicExtra.id, undefined, start, unix('2026-12-02T10:00:00Z')],
    ]);
    const card = await fixture.stripe.paymentMethods.retrieve(String(subscription.default_payment_method));
    expect(card.card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 12 });
    expect(((await fixture.stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method).toBe(card.id);

    const invoice = await fixture.stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 4900, total: 4900, billing_reason: 'subscription_create', parent: { subscription_details: { subscription: subscription.id } } });
    expect(invoice.number).toMatch(/^[A-Z0-9]+-0001$/);
    expect(invoice.lines.data[0]).toMatchObject({ amount: 4900, pricing: { price_details: { price: prices.basic.id } }, period: { start, end: unix('2026-12-02T10:00:00Z') } });
    const pdf = await fetch(String(invoice.invoice_pdf));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-1.4')).toBe(true);
    expect(bytes).toContain(`(Factura ${invoice.number}) '`);
    expect((await fetch(String(invoice.hosted_invoice_url))).status).toBe(200);
    const listed = await fixture.stripe.invoices.list({ customer: customer.id, limit: 5 });
    expect(listed.data.map((entry) => entry.id)).toEqual([invoice.id]);
  });
});

describe('cancelling now', () => {
  it('ends the subscription at once (customer.subscription.deleted), and a second cancel is refused', async () => {
    const { subscription, session } = await fixture.subscribe(PRO);
    const expanded = await fixture.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect((expanded.subscription as Stripe.Subscription).id).toBe(subscription.id);
    const from = fixture.received.length;
    expect(await fixture.stripe.subscriptions.cancel(subscription.id)).toMatchObject({ status: 'canceled', ended_at: unix('2026-11-02T10:00:00Z') });
    expect(await typesSince(from)).toEqual(['customer.subscription.deleted']);
    await expect(fixture.stripe.subscriptions.cancel(subscription.id)).rejects.toMatchObject({ statusCode: 400 });
    await expect(fixture.standin.advancePeriod(subscription.id)).rejects.toMatchObject({ status: 400 });
  });
});

describe('the end of a period', () => {
  it('cancels a subscription set to cancel at period end, without an invoice', async () => {
    const { subscription } = await fixture.subscribe(BASIC);
    const from = fixture.received.length;
    const updated = await fixture.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(updated).toMatchObject({ cancel_at_period_end: true, cancel_at: subscription.items.data[0]?.current_period_end });
    expect(await typesSince(from)).toEqual(['customer.subscription.updated']);
    expect(fixture.received.at(-1)?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });

    expect(await fixture.standin.advancePeriod(subscription.id)).toEqual({ invoiceId: null });
    expect(await typesSince(from + 1)).toEqual(['customer.subscription.deleted']);
    expect(await fixture.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled' });
    expect((await fixture.stripe.subscriptions.list({ customer: subscription.customer as string })).data).toEqual([]);
    expect((await fixture.stripe.subscriptions.list({ customer: subscription.customer as string, status: 'all' })).data).toHaveLength(1);
  });

  it('switches to the next phase of a schedule, invoices the new plan and releases the schedule', async () => {
    const { subscription } = await fixture.subscribe(BASIC);
    const schedule = await fixture.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    expect(schedule.phases).toHaveLength(1);
    expect((await fixture.stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
    const periodEnd = subscription.items.data[0]?.current_period_end ?? 0;
    const phase0 = schedule.phases[0];
    await fixture.stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: 'release',
      phases: [
        { items: [{ price: prices.basic.id, quantity: 1 }, { price: prices.basicExtra.id }], start_date: phase0?.start_date, end_date: periodEnd },
        { items: [{ price: prices.pro.id, quantity: 1 }, { price: prices.proExtra.id }], duration: { interval: 'month', interval_count: 1 } },
      ],
    });
    await expect(fixture.stripe.subscriptionSchedules.update(schedule.id, { phases: [{ items: [{ price: 'price_nope' }] }] })).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' });
    const from = fixture.received.length;
    const { invoiceId } = await fixture.standin.advancePeriod(subscription.id);
    expect(await typesSince(from)).toEqual(['subscription_schedule.released', 'customer.subscription.updated', 'invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded', 'customer.subscription.updated']);
    const after = await fixture.stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data.map((item) => item.price.id)).toEqual([prices.pro.id, prices.proExtra.id]);
    expect(after).toMatchObject({ schedule: null, status: 'active', latest_invoice: invoiceId });
    expect(after.items.data[0]?.current_period_start).toBe(periodEnd);
    expect(await fixture.stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ status: 'released', released_subscription: subscription.id });
    expect(await fixture.stripe.invoices.retrieve(String(invoiceId))).toMatchObject({ amount_paid: 14900, billing_reason: 'subscription_cycle', status: 'paid' });
  });

  it('releases a schedule on request, the subscription keeping its items', async () => {
    const { subscription } = await fixture.subscribe(PRO);
    const schedule = await fixture.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    const from = fixture.received.length;
    expect(await fixture.stripe.subscriptionSchedules.release(schedule.id)).toMatchObject({ status: 'released' });
    expect(await typesSince(from)).toEqual(['subscription_schedule.released', 'customer.subscription.updated']);
    const after = await fixture.stripe.subscriptions.retrieve(subscription.id);
    expect(after.schedule).toBeNull();
    expect(after.items.data.map((item) => item.price.id)).toEqual([...PRO]);
  });

  it('refuses to cancel a subscription a schedule manages, as Stripe does: released first, it cancels and the next phase is gone', async () => {
    const { subscription } = await fixture.subscribe(BASIC);
    const schedule = await fixture.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    const phase0 = schedule.phases[0];
    await fixture.stripe.subscriptionSchedules.update(schedule.id, {
      phases: [
        { items: [...BASIC].map((price) => ({ price })), start_date: phase0?.start_date, end_date: phase0?.end_date },
        { items: [...PRO].map((price) => ({ price })) },
      ],
    });
    const from = fixture.received.length;
    await expect(fixture.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).rejects.toMatchObject({
      statusCode: 400,
      message: `The subscription is managed by the subscription schedule \`${schedule.id}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    });
    expect(fixture.received.length).toBe(from);
    expect((await fixture.stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);

    await fixture.stripe.subscriptionSchedules.release(schedule.id);
    expect((await fixture.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).cancel_at_period_end).toBe(true);
    // Resuming does not bring the change back: the schedule stays released.
    expect((await fixture.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false })).schedule).toBeNull();
    expect((await fixture.stripe.subscriptionSchedules.retrieve(schedule.id)).status).toBe('released');
  });

  it('leaves a failed payment open and the subscription past due until the invoice is paid', async () => {
    const { subscription, customer } = await fixture.subscribe(BASIC);
    fixture.standin.failNextPayment(customer.id);
    const from = fixture.received.length;
    const { invoiceId } = await fixture.standin.advancePeriod(subscription.id);
    expect(await typesSince(from)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.payment_failed', 'customer.subscription.updated']);
    expect(await fixture.stripe.invoices.retrieve(String(invoiceId))).toMatchObject({ status: 'open', attempt_count: 1, amount_remaining: 4900 });
    expect(await fixture.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'past_due' });

    await fixture.standin.payInvoice(String(invoiceId));
    expect(await typesSince(from + 4)).toEqual(['invoice.paid', 'invoice.payment_succeeded', 'customer.subscription.updated']);
    expect(await fixture.stripe.invoices.retrieve(String(invoiceId))).toMatchObject({ status: 'paid', attempt_count: 2 });
    expect(await fixture.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active' });
  });

  it('keeps failing with the card that attaches but cannot be charged (…0341)', async () => {
    const { subscription } = await fixture.subscribe(BASIC, '4000000000000341');
    const { invoiceId } = await fixture.standin.advancePeriod(subscription.id);
    await expect(fixture.standin.payInvoice(String(invoiceId))).rejects.toMatchObject({ type: 'card_error' });
    await expect(fixture.stripe.invoices.pay(String(invoiceId))).rejects.toThrow(Stripe.errors.StripeCardError);
    expect(await fixture.stripe.invoices.retrieve(String(invoiceId))).toMatchObject({ status: 'open', attempt_count: 3 });
  });
});

describe('meter events', () => {
  it('are checked, recorded with duplicates flagged, and billed once on the next invoice', async () => {
    const { subscription, customer } = await fixture.subscribe(BASIC);
    const report = (value: string, identifier: string, idempotencyKey?: string) =>
      fixture.stripe.billing.meterEvents.create({ event_name: 'autoasesor_extra_slans', payload: { stripe_customer_id: customer.id, value }, identifier, timestamp: unix('2026-11-20T00:00:00Z') }, { idempotencyKey });
    const before = fixture.standin.meterEvents().length;
    expect(await report('1500', 'run-1')).toMatchObject({ object: 'billing.meter_event', identifier: 'run-1' });
    await report('1500', 'run-1');
    await report('500', 'run-2', 'meter-run-2');
    await report('500', 'run-2', 'meter-run-2'); // replayed by Stripe, but still a second report
    await expect(report('2.5', 'run-3')).rejects.toMatchObject({ statusCode: 400, param: 'payload[value]' });
    await expect(report('-1', 'run-3')).rejects.toThrow(Stripe.errors.StripeInvalidRequestError);
    await expect(fixture.stripe.billing.meterEvents.create({ event_name: 'otro', payload: { stripe_customer_id: customer.id, value: '1' } })).rejects.toMatchObject({ param: 'event_name' });
    await expect(fixture.stripe.billing.meterEvents.create({ event_name: 'autoasesor_extra_slans', payload: { stripe_customer_id: 'cus_nope', value: '1' } })).rejects.toMatchObject({ statusCode: 400 });
    expect(fixture.standin.meterEvents().slice(before).map((event) => [event.identifier, event.value, event.duplicate, event.replayed])).toEqual([
      ['run-1', 1500, false, false],
      ['run-1', 1500, true, false],
      ['run-2', 500, false, false],
      ['run-2', 500, true, true],
    ]);

    const { invoiceId } = await fixture.standin.advancePeriod(subscription.id);
    const invoice = await fixture.stripe.invoices.retrieve(String(invoiceId));
    // The duplicate counts once: 2000 units (thousandths of a slan) × 0.003 cents = 6 cents.
    const metered = invoice.lines.data.find((line) => line.pricing?.price_details?.price === prices.basicExtra.id);
    expect(metered).toMatchObject({ quantity: 2000, amount: 6, period: { start: unix('2026-11-02T10:00:00Z'), end: unix('2026-12-02T10:00:00Z') } });
    expect(invoice.total).toBe(4906);
  });
});
