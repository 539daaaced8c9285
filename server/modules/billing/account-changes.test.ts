/**
 * The owner's changes to a running plan against the Stripe stand-in: billing info on the customer, a
 * change of plan at the next period (a schedule), cancel and resume. Webhooks stay off: the rows they
 * would write are arranged (account-test-support.ts).
 */
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { billingInfoSchema, billingPaths, NO_PAID_SUBSCRIPTION_MESSAGE, subscriptionFullSchema, TAX_ID_INVALID_MESSAGE } from '#shared/api/billing.ts';
import type { Kysely } from 'kysely';
import { STANDIN_CATALOGUE, type StripeStandin } from '../../../standins/stripe/standin.ts';
import type { Database } from '../../db/schema.ts';
import type { CookieJar, TestServer } from '../../test/harness.ts';
import { closeStandinFirm, startQuietStandin, startStandinFirm, subscribe } from './account-test-support.ts';

let standin: StripeStandin;
let stripe: Stripe;
let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let anaGroup: string;

beforeAll(async () => ({ standin, stripe } = await startQuietStandin()));
afterAll(async () => standin.close());
beforeEach(async () => ({ server, db, ana, anaGroup } = await startStandinFirm(standin, stripe)));
afterEach(async () => closeStandinFirm({ server, db }));

const firmRow = () => db.selectFrom('subscriptions').selectAll().where('group_id', '=', anaGroup).executeTakeFirstOrThrow();

const INFO = {
  name: 'Asesoría Pérez SL',
  taxId: ' b-1234567-4 ',
  email: 'facturas@asesoria.es',
  addressLine1: 'Calle Mayor 1',
  addressLine2: '2º B',
  postalCode: '28013',
  city: 'Madrid',
  province: 'Madrid',
  country: 'ES',
};

describe('billing info', () => {
  it('refuses a bad NIF with 400 and writes nothing, here or at Stripe', async () => {
    const response = await ana.put(billingPaths.billingInfo, { ...INFO, taxId: '12345678A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'taxId', message: TAX_ID_INVALID_MESSAGE }] });
    expect(server.countRows('billing_profiles')).toBe(0);
    expect((await firmRow()).stripe_customer_id).toBeNull();
    // None saved: a 200 with null (a page that asks logs no 404).
    const none = await ana.get(billingPaths.billingInfo);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
  });

  it('sends a good one to the customer (name, address, tax id), then stores it compacted; a new NIF replaces the old', async () => {
    const response = await ana.put(billingPaths.billingInfo, INFO);
    expect(response.statusCode).toBe(200);
    const saved = billingInfoSchema.parse(response.json());
    expect(saved).toMatchObject({ taxId: 'B12345674', addressLine2: '2º B' });
    expect(billingInfoSchema.parse((await ana.get(billingPaths.billingInfo)).json())).toEqual(saved);

    const customerId = (await firmRow()).stripe_customer_id ?? '';
    const customer = await stripe.customers.retrieve(customerId);
    expect(customer).toMatchObject({
      name: 'Asesoría Pérez SL',
      email: 'facturas@asesoria.es',
      address: { line1: 'Calle Mayor 1', line2: '2º B', postal_code: '28013', city: 'Madrid', state: 'Madrid', country: 'ES' },
    });
    expect((await stripe.customers.listTaxIds(customerId)).data.map((tax) => [tax.type, tax.value])).toEqual([['es_cif', 'B12345674']]);

    expect((await ana.put(billingPaths.billingInfo, { ...INFO, taxId: 'A58818501' })).statusCode).toBe(200);
    expect((await stripe.customers.listTaxIds(customerId)).data.map((tax) => [tax.type, tax.value])).toEqual([['es_cif', 'A58818501']]);
    expect(server.countRows('billing_profiles')).toBe(1);
  });
});

describe('the plan of the next period', () => {
  it('needs a running paid plan and another plan', async () => {
    const none = await ana.post(billingPaths.nextPhase, { planRef: 'pro' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'NO_PAID_SUBSCRIPTION', message: NO_PAID_SUBSCRIPTION_MESSAGE });
    await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    expect((await ana.post(billingPaths.nextPhase, { planRef: 'basic' })).json()).toMatchObject({ code: 'SAME_PLAN' });
    expect((await ana.post(billingPaths.nextPhase, { planRef: 'oro' })).statusCode).toBe(404);
    expect((await firmRow()).stripe_schedule_id).toBeNull();
  });

  it('schedules the change as a second phase at Stripe, and DELETE releases it', async () => {
    const { subscriptionId } = await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    const response = await ana.post(billingPaths.nextPhase, { planRef: 'pro' });
    expect(response.statusCode).toBe(200);
    expect(subscriptionFullSchema.parse(response.json())).toMatchObject({ ref: 'basic', scheduleSubNextPhaseRef: 'pro', scheduleSubNextPhaseName: 'Profesional' });

    const row = await firmRow();
    const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id ?? '');
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const periodEnd = Math.max(...subscription.items.data.map((item) => item.current_period_end));
    const pricesOf = (phase: Stripe.SubscriptionSchedule.Phase | undefined) => phase?.items.map((item) => (typeof item.price === 'string' ? item.price : item.price.id));
    expect(schedule.end_behavior).toBe('release');
    expect(schedule.phases).toHaveLength(2);
    expect(pricesOf(schedule.phases[0])).toEqual([STANDIN_CATALOGUE.prices.basic.id, STANDIN_CATALOGUE.prices.basicExtra.id]);
    expect(schedule.phases[0]?.end_date).toBe(periodEnd);
    expect(pricesOf(schedule.phases[1])).toEqual([STANDIN_CATALOGUE.prices.pro.id, STANDIN_CATALOGUE.prices.proExtra.id]);

    // Choosing again updates the same schedule.
    await ana.post(billingPaths.nextPhase, { planRef: 'pro' });
    expect((await firmRow()).stripe_schedule_id).toBe(schedule.id);

    expect((await ana.request({ method: 'DELETE', url: billingPaths.nextPhase })).statusCode).toBe(204);
    expect((await stripe.subscriptionSchedules.retrieve(schedule.id)).status).toBe('released');
    expect(await firmRow()).toMatchObject({ stripe_schedule_id: null, next_plan_id: null });
    expect(subscriptionFullSchema.parse((await ana.get(billingPaths.subscription)).json()).scheduleSubNextPhaseRef).toBeNull();
  });
});

describe('cancel and resume', () => {
  it('cancels at the period’s end (releasing a pending change first) and resumes', async () => {
    const { subscriptionId } = await subscribe(ana, db, stripe, standin, anaGroup, 'basic');
    await ana.post(billingPaths.nextPhase, { planRef: 'pro' });
    const scheduleId = (await firmRow()).stripe_schedule_id ?? '';

    const cancelled = await ana.post(billingPaths.cancel);
    expect(cancelled.statusCode).toBe(200);
    const view = subscriptionFullSchema.parse(cancelled.json());
    expect(view).toMatchObject({ cancelled: true, nextPaymentDate: null, scheduleSubNextPhaseRef: null });
    expect(view.stripeSub?.cancelAt).not.toBeNull();
    expect((await stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(true);
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId)).status).toBe('released');

    const resumed = subscriptionFullSchema.parse((await ana.post(billingPaths.resume)).json());
    expect(resumed).toMatchObject({ cancelled: false, stripeSub: { cancelAt: null } });
    expect((await stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(false);
  });

  it('answers 409 without a paid plan', async () => {
    expect((await ana.post(billingPaths.cancel)).json()).toMatchObject({ code: 'NO_PAID_SUBSCRIPTION' });
    expect((await ana.post(billingPaths.resume)).statusCode).toBe(409);
  });
});
