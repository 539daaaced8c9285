import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { signature } from '../../../standins/stripe/webhooks.ts';
import { buildApp } from '../../app.ts';
import { startTestServer } from '../../test/harness.ts';
import { INVALID_SIGNATURE_MESSAGE, SIGNATURE_CLOCK_SKEW_SECONDS } from './sync.ts';
import { standinBilling } from './account-test-support.ts';
import { PRICES, startBillingWorld, subscribe, subscriptionRow, type BillingWorld } from './sync-test-support.ts';

const BILLING_TABLES = ['billing_events', 'billing_invoices', 'credit_grants', 'subscriptions', 'billing_usage_reports'] as const;

let world: BillingWorld;
beforeEach(async () => {
  world = await startBillingWorld();
});
afterEach(async () => world.close());

async function usage(jar: { get(url: string): Promise<{ json(): unknown }> }): Promise<SubscriptionUsage> {
  return (await jar.get('/api/subscriptions/usage')).json() as SubscriptionUsage;
}

describe('Stripe webhooks', () => {
  it('follow a subscription from the trial to its end: checkout, a failed renewal, payment, cancel', async () => {
    const email = 'duena@asesoria.es';
    // The firm spent some of its trial before paying.
    const { jar, groupId, customerId, subscriptionId } = await subscribe(world, email, { trialUsed: 120 });

    // Checkout completed: active on Básico, usage from 0, the period's slans granted after the trial's.
    let row = await subscriptionRow(world, groupId);
    const basic = await world.db.selectFrom('plans').select('id').where('ref', '=', 'basic').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ plan_id: basic.id, status: 'active', used_slans: 0, stripe_customer_id: customerId, stripe_subscription_id: subscriptionId, cancel_at: null, payment_failed_at: null });
    const grants = await world.db.selectFrom('credit_grants').select(['reason', 'slans', 'plan_name']).where('group_id', '=', groupId).orderBy('created_at').orderBy('reason', 'desc').execute();
    expect(grants).toEqual([{ reason: 'trial', slans: 500, plan_name: 'Prueba' }, { reason: 'period', slans: 2000, plan_name: 'Básico' }]);
    expect(await usage(jar)).toMatchObject({ active: true, trialing: false, name: 'Básico', paymentFailed: false });
    // The first invoice, paid at checkout, is kept even though it may come before its subscription.
    expect(await world.db.selectFrom('billing_invoices').select(['status', 'total', 'payment_failed_at']).where('group_id', '=', groupId).execute()).toEqual([{ status: 'paid', total: 4900, payment_failed_at: null }]);

    // The renewal's charge fails: past_due, the banner, one email to the owner.
    await world.db.updateTable('subscriptions').set({ used_slans: 37 }).where('group_id', '=', groupId).execute();
    world.standin.failNextPayment(customerId);
    const { invoiceId } = await world.standin.advancePeriod(subscriptionId);
    await world.standin.settled();
    row = await subscriptionRow(world, groupId);
    expect(row.status).toBe('past_due');
    expect(row.used_slans).toBe(0);
    expect(row.payment_failed_at).not.toBeNull();
    expect(await usage(jar)).toMatchObject({ paymentFailed: true });
    const mails = world.server.mailedMessages('payment_failed');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email, link: 'http://app.test/payments' });
    expect(mails[0]?.text).toContain('49,00');
    expect(world.server.countRows('credit_grants')).toBe(3);
    const invoice = await world.db.selectFrom('billing_invoices').selectAll().where('id', '=', invoiceId ?? '').executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ group_id: groupId, status: 'open', amount_due: 4900 });
    expect(invoice.payment_failed_at).not.toBeNull();

    // Paid by hand: active again, no banner.
    await world.standin.payInvoice(invoiceId ?? '');
    await world.standin.settled();
    expect(await subscriptionRow(world, groupId)).toMatchObject({ status: 'active', payment_failed_at: null });
    expect(await world.db.selectFrom('billing_invoices').select(['status', 'payment_failed_at']).where('id', '=', invoiceId ?? '').executeTakeFirstOrThrow()).toEqual({ status: 'paid', payment_failed_at: null });
    expect(await usage(jar)).toMatchObject({ paymentFailed: false, active: true });

    // Cancel at the period's end: it still runs, and ends with the period.
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    await world.standin.settled();
    row = await subscriptionRow(world, groupId);
    expect(row.cancel_at).toBe(row.current_period_end);
    expect(await usage(jar)).toMatchObject({ active: true, cancelled: true });
    await world.standin.advancePeriod(subscriptionId);
    await world.standin.settled();
    expect((await subscriptionRow(world, groupId)).status).toBe('canceled');
    expect(await usage(jar)).toMatchObject({ active: false, cancelled: true });
    expect(world.statuses.every((status) => status === 200)).toBe(true);

    // Every event delivered 20 times more changes nothing: the same rows, the same one email.
    const counts = world.server.countTables(BILLING_TABLES);
    const before = await subscriptionRow(world, groupId);
    const invoices = await world.db.selectFrom('billing_invoices').selectAll().orderBy('id').execute();
    const events = world.standin.events();
    expect(events.length).toBeGreaterThan(8);
    for (let round = 0; round < 20; round += 1) {
      for (const event of events) await world.standin.resend(event.id);
    }
    await world.standin.settled();
    expect(world.server.countTables(BILLING_TABLES)).toEqual(counts);
    expect(await subscriptionRow(world, groupId)).toEqual(before);
    expect(await world.db.selectFrom('billing_invoices').selectAll().orderBy('id').execute()).toEqual(invoices);
    expect(world.server.mailedMessages('payment_failed')).toHaveLength(1);
  });

  it('apply Stripe\'s current state, whatever order the events come in', async () => {
    const { groupId, subscriptionId } = await subscribe(world, 'orden@asesoria.es');
    // Two changes while the endpoint is away: cancel, then resume.
    world.standin.setWebhookTarget(null);
    const seen = world.standin.events().length;
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false });
    const [cancelled, resumed] = world.standin.events().slice(seen).filter((event) => event.type === 'customer.subscription.updated');
    expect(cancelled && resumed).toBeTruthy();
    world.standin.setWebhookTarget(async (payload, headers) => ({ status: (await world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers })).statusCode }));

    // The newer first, then the older one late: the subscription stays as Stripe has it now (renewing).
    await world.standin.resend(resumed?.id ?? '');
    await world.standin.settled();
    expect((await subscriptionRow(world, groupId)).cancel_at).toBeNull();
    await world.standin.resend(cancelled?.id ?? '');
    await world.standin.settled();
    expect((await subscriptionRow(world, groupId)).cancel_at).toBeNull();
    expect(await world.db.selectFrom('billing_events').select('processed_at').where('id', '=', cancelled?.id ?? '').executeTakeFirstOrThrow()).not.toEqual({ processed_at: null });
  });

  it('cancel a second paid subscription of a firm whose first still runs (two checkouts paid), keeping the first', async () => {
    const { groupId, customerId, subscriptionId } = await subscribe(world, 'doble@asesoria.es');
    // A second payment page, opened before the first was paid, paid afterwards.
    const second = await world.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price: PRICES.pro.id, quantity: 1 }, { price: PRICES.proExtra.id }],
      success_url: 'http://app.test/payments',
      subscription_data: { metadata: { group_id: groupId } },
    });
    await world.standin.completeCheckout(second.id);
    await world.standin.settled();
    const duplicate = String((await world.stripe.checkout.sessions.retrieve(second.id)).subscription);
    expect((await world.stripe.subscriptions.retrieve(duplicate)).status).toBe('canceled');
    expect((await world.stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    expect(await subscriptionRow(world, groupId)).toMatchObject({ stripe_subscription_id: subscriptionId, status: 'active' });
  });

  it('refuse a bad or missing signature with 400 and write nothing', async () => {
    await subscribe(world, 'firma@asesoria.es');
    const event = world.standin.events().at(-1);
    const counts = world.server.countTables(BILLING_TABLES);
    const forged = await world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: event?.body.replace('"livemode":false', '"livemode":true') ?? '{}', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ message: INVALID_SIGNATURE_MESSAGE });
    const unsigned = await world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: event?.body ?? '{}', headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    expect(world.server.countTables(BILLING_TABLES)).toEqual(counts);
  });

  it('refuse a signature dated in the future past the clock skew, as one too old, and write nothing', async () => {
    await subscribe(world, 'futuro@asesoria.es');
    const event = world.standin.events().at(-1);
    const body = event?.body ?? '{}';
    // Taken back from the database so the same event can be offered again.
    await world.db.deleteFrom('billing_events').where('id', '=', event?.id ?? '').execute();
    const counts = world.server.countTables(BILLING_TABLES);
    const now = Math.floor(Date.now() / 1000);
    const deliver = (t: number) => world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature(world.standin.webhookSecret, body, t) } });
    for (const t of [now + 3600, now + SIGNATURE_CLOCK_SKEW_SECONDS + 120, now + 365 * 86_400, now - 3600]) {
      const response = await deliver(t);
      expect(response.statusCode, String(t - now)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_SIGNATURE', message: INVALID_SIGNATURE_MESSAGE });
    }
    // A later t= cannot hide behind an earlier one: the SDK checks the last, and so do we.
    const future = signature(world.standin.webhookSecret, body, now + 3600);
    const twoTimes = await world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${now},${future}` } });
    expect(twoTimes.statusCode).toBe(400);
    expect(world.server.countTables(BILLING_TABLES)).toEqual(counts);
    // Within the skew (a clock a few seconds ahead of ours), and now: taken.
    expect((await deliver(now + 5)).statusCode).toBe(200);
    expect((await deliver(now)).statusCode).toBe(200);
  });

  it('send one failed-payment email per invoice, however many distinct events about it come, at once or later', async () => {
    const email = 'impago@asesoria.es';
    const { groupId, customerId, subscriptionId } = await subscribe(world, email);
    // The renewal's charge fails while the endpoint is away: the stand-in's own events are not delivered.
    world.standin.setWebhookTarget(null);
    world.standin.failNextPayment(customerId);
    const { invoiceId } = await world.standin.advancePeriod(subscriptionId);
    await world.standin.settled();
    expect(invoiceId).toBeTruthy();
    expect(world.server.mailedMessages('payment_failed')).toEqual([]);

    // 20 distinct events (each its own id, each properly signed) about that one failed invoice, all at once.
    const failed = (n: number) => {
      const body = JSON.stringify({ id: `evt_impago_${n}`, object: 'event', type: 'invoice.payment_failed', created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { id: invoiceId, object: 'invoice' } } });
      return world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature(world.standin.webhookSecret, body, Math.floor(Date.now() / 1000)) } });
    };
    const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => failed(n)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    expect(world.server.mailedMessages('payment_failed')).toEqual([expect.objectContaining({ to: email })]);
    expect((await subscriptionRow(world, groupId)).payment_failed_at).not.toBeNull();

    // Later ones, and the stand-in's own events once the endpoint is back, send nothing more.
    for (let n = 20; n < 25; n += 1) expect((await failed(n)).statusCode).toBe(200);
    world.standin.setWebhookTarget(async (payload, headers) => ({ status: (await world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers })).statusCode }));
    for (const event of world.standin.events().filter((record) => record.status === 'not_sent')) await world.standin.resend(event.id);
    await world.standin.settled();
    expect(world.server.mailedMessages('payment_failed')).toHaveLength(1);
    const invoice = await world.db.selectFrom('billing_invoices').select(['payment_failed_at', 'payment_failed_mailed_at']).where('id', '=', invoiceId ?? '').executeTakeFirstOrThrow();
    expect(invoice.payment_failed_at).not.toBeNull();
    expect(invoice.payment_failed_mailed_at).not.toBeNull();
  });

  it('send that one email once across server processes on one database', async () => {
    const { customerId, subscriptionId } = await subscribe(world, 'dos-procesos@asesoria.es');
    world.standin.setWebhookTarget(null);
    world.standin.failNextPayment(customerId);
    const { invoiceId } = await world.standin.advancePeriod(subscriptionId);
    await world.standin.settled();
    const lines: string[] = [];
    const second = await buildApp({ database: world.server.database, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], storageDir: `${world.server.dir}/storage`, billing: standinBilling(world.standin), billingPlansIntervalMs: 0, billingUsageIntervalMs: 0, logStream: { write: (line) => lines.push(line) } });
    try {
      const now = Math.floor(Date.now() / 1000);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, n) => {
          const body = JSON.stringify({ id: `evt_dos_${n}`, object: 'event', type: 'invoice.payment_failed', created: now, livemode: false, data: { object: { id: invoiceId, object: 'invoice' } } });
          const app = n % 2 === 0 ? world.server.app : second;
          return app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature(world.standin.webhookSecret, body, now) } });
        }),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
      const secondMails = lines.filter((line) => (JSON.parse(line) as { mail?: { purpose?: string } }).mail?.purpose === 'payment_failed');
      expect(world.server.mailedMessages('payment_failed').length + secondMails.length).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('take the mark back when the email could not be sent: the next event about the invoice sends it', async () => {
    const { customerId, subscriptionId } = await subscribe(world, 'sin-correo@asesoria.es');
    world.standin.setWebhookTarget(null);
    world.standin.failNextPayment(customerId);
    const { invoiceId } = await world.standin.advancePeriod(subscriptionId);
    await world.standin.settled();
    // A server process whose SMTP server is down (a port nobody listens on).
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const lines: string[] = [];
    const noMail = await buildApp({ database: world.server.database, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], storageDir: `${world.server.dir}/storage`, billing: standinBilling(world.standin), billingPlansIntervalMs: 0, billingUsageIntervalMs: 0, smtp: { url: `smtp://127.0.0.1:${port}`, from: 'AutoAsesor <no-responder@app.test>' }, logStream: { write: (line) => lines.push(line) } });
    const failedEvent = (app: typeof noMail, id: string) => {
      const now = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ id, object: 'event', type: 'invoice.payment_failed', created: now, livemode: false, data: { object: { id: invoiceId, object: 'invoice' } } });
      return app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature(world.standin.webhookSecret, body, now) } });
    };
    try {
      expect((await failedEvent(noMail, 'evt_smtp_caido')).statusCode).toBe(200);
      expect(lines.some((line) => line.includes('No se ha podido enviar el aviso de pago fallido'))).toBe(true);
    } finally {
      await noMail.close();
    }
    expect(await world.db.selectFrom('billing_invoices').select('payment_failed_mailed_at').where('id', '=', invoiceId ?? '').executeTakeFirstOrThrow()).toEqual({ payment_failed_mailed_at: null });
    expect((await failedEvent(world.server.app, 'evt_reintento')).statusCode).toBe(200);
    expect(world.server.mailedMessages('payment_failed')).toEqual([expect.objectContaining({ to: 'sin-correo@asesoria.es' })]);
  });

  it('are not taken by a server without Stripe (404)', async () => {
    const plain = await startTestServer();
    try {
      const response = await plain.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: '{}', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=0' } });
      expect(response.statusCode).toBe(404);
      expect(plain.countRows('billing_events')).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
