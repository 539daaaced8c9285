/** Webhooks on a server from startTestServer (through startBillingWorld): cards, schedules and failures. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer } from '../../test/harness.ts';
import { standinBilling } from './account-test-support.ts';
import { WEBHOOK_FAILED_MESSAGE } from './sync.ts';
import { PRICES, startBillingWorld, subscribe, subscriptionRow, type BillingWorld } from './sync-test-support.ts';

let world: BillingWorld;
beforeEach(async () => {
  world = await startBillingWorld();
});
afterEach(async () => world.close());

describe('Stripe webhooks, beyond the subscription', () => {
  it('make a card added through hosted setup the default of a customer that had none, and only then', async () => {
    await registerUser(world.server.app, 'tarjeta@asesoria.es');
    const { group_id: groupId } = await world.db.selectFrom('users').select('group_id').where('email', '=', 'tarjeta@asesoria.es').executeTakeFirstOrThrow();
    const customer = await world.stripe.customers.create({ email: 'tarjeta@asesoria.es', metadata: { group_id: groupId } });
    const addCard = async (card: string) => {
      const session = await world.stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, currency: 'eur', success_url: 'http://app.test/payments', client_reference_id: groupId });
      await world.standin.completeCheckout(session.id, card);
      await world.standin.settled();
    };

    await addCard('4242424242424242');
    const first = (await world.stripe.customers.retrieve(customer.id)) as { invoice_settings: { default_payment_method: string | null } };
    expect(first.invoice_settings.default_payment_method).toMatch(/^pm_/);
    await addCard('5555555555554444');
    const second = (await world.stripe.customers.retrieve(customer.id)) as { invoice_settings: { default_payment_method: string | null } };
    expect(second.invoice_settings.default_payment_method).toBe(first.invoice_settings.default_payment_method);
    expect(world.statuses.every((status) => status === 200)).toBe(true);
  });

  it('keep the plan of the schedule\'s next phase, and forget it when the schedule is released', async () => {
    const { groupId, subscriptionId } = await subscribe(world, 'fase@asesoria.es');
    const schedule = await world.stripe.subscriptionSchedules.create({ from_subscription: subscriptionId });
    const current = schedule.phases[0];
    await world.stripe.subscriptionSchedules.update(schedule.id, {
      phases: [
        { items: [{ price: PRICES.basic.id, quantity: 1 }, { price: PRICES.basicExtra.id }], start_date: current?.start_date, end_date: current?.end_date },
        { items: [{ price: PRICES.pro.id, quantity: 1 }, { price: PRICES.proExtra.id }] },
      ],
    });
    await world.standin.settled();
    const pro = await world.db.selectFrom('plans').select('id').where('ref', '=', 'pro').executeTakeFirstOrThrow();
    expect(await subscriptionRow(world, groupId)).toMatchObject({ stripe_schedule_id: schedule.id, next_plan_id: pro.id });

    await world.stripe.subscriptionSchedules.release(schedule.id);
    await world.standin.settled();
    expect(await subscriptionRow(world, groupId)).toMatchObject({ next_plan_id: null });
  });

  it('answer 500 while Stripe cannot be read, so Stripe sends the event again, and keep it unprocessed', async () => {
    // A server whose Stripe is a port nobody listens on.
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const billing = standinBilling(world.standin);
    const cut = await startTestServer({ billing: { ...billing, api: { host: '127.0.0.1', port, protocol: 'http' } }, billingPlansIntervalMs: 0, billingUsageIntervalMs: 0 });
    try {
      const payload = signedEvent('evt_sin_red', 'sub_cualquiera');
      const response = await cut.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: payload.body, headers: payload.headers });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ message: WEBHOOK_FAILED_MESSAGE });
      const db = connectDatabase(cut.database);
      try {
        expect(await db.selectFrom('billing_events').select(['id', 'processed_at']).execute()).toEqual([{ id: 'evt_sin_red', processed_at: null }]);
      } finally {
        await db.destroy();
      }
    } finally {
      await cut.close();
    }
  });

  it('take an event about something Stripe no longer has as processed: nothing to apply, ever', async () => {
    const payload = signedEvent('evt_desaparecido', 'sub_desaparecida');
    const deliver = () => world.server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: payload.body, headers: payload.headers });
    expect((await deliver()).statusCode).toBe(200);
    expect((await deliver()).statusCode).toBe(200);
    expect(await world.db.selectFrom('billing_events').select(['id']).where('processed_at', 'is not', null).execute()).toEqual([{ id: 'evt_desaparecido' }]);
  });
});

/** A customer.subscription.updated about `subscriptionId`, signed with the stand-in's secret. */
function signedEvent(id: string, subscriptionId: string) {
  const body = JSON.stringify({ id, object: 'event', type: 'customer.subscription.updated', created: Math.floor(Date.now() / 1000), data: { object: { id: subscriptionId, object: 'subscription' } } });
  return { body, headers: { 'content-type': 'application/json', 'stripe-signature': world.stripe.webhooks.generateTestHeaderString({ payload: body, secret: world.standin.webhookSecret }) } };
}
