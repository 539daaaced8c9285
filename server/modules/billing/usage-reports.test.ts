/** The meter reporter's refusals and retries on a server from startTestServer, with a scripted Stripe. */
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from '../flowlogs/fixtures.ts';
import type { StripeClient } from './stripe-client.ts';
import { backoffMs, recordExtraUsage, UsageReporter } from './usage-reports.ts';

const CONFIG = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', api: null, meterEventName: 'autoasesor_extra_slans' };

let server: TestServer;
let db: ReturnType<typeof connectDatabase>;
let groupId: string;
let userId: string;
beforeEach(async () => {
  server = await startTestServer();
  db = connectDatabase(server.database);
  await registerUser(server.app, 'contador@asesoria.es');
  ({ groupId, userId } = await memberOf(db, 'contador@asesoria.es'));
  await insertFlow(db, { id: 'robot-contador', name: 'Robot contador' });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

/** A firm on a paid Stripe subscription of Básico (2,000 slans), `used` of them spent. */
async function onPaidPlan(used: number, customer: string | null = 'cus_contador'): Promise<void> {
  const basic = await db.selectFrom('plans').select('id').where('ref', '=', 'basic').executeTakeFirstOrThrow();
  await db.updateTable('subscriptions').set({ plan_id: basic.id, status: 'active', used_slans: used, stripe_customer_id: customer, stripe_subscription_id: 'sub_contador' }).where('group_id', '=', groupId).execute();
}

/** A finished run charged `cost` slans, its usage past the limit recorded as closing.ts does. */
async function chargedRun(cost: number): Promise<string> {
  const runId = await insertRun(db, { groupId, userId, flowId: 'robot-contador', createdAt: new Date().toISOString(), usageUnits: cost, charged: true });
  await db.transaction().execute((trx) => recordExtraUsage(trx, { groupId, runId, cost, now: new Date() }));
  await db.updateTable('subscriptions').set((eb) => ({ used_slans: eb('used_slans', '+', sql<number>`cast(${cost} as double precision)`) })).where('group_id', '=', groupId).execute();
  return runId;
}

/** Stripe's meter, answering with `outcomes` in turn (an Error is thrown), and the calls it got. */
function scriptedStripe(outcomes: Array<Error | 'ok'>) {
  const calls: Array<{ params: Stripe.Billing.MeterEventCreateParams; options: Stripe.RequestOptions | undefined }> = [];
  const stripe = {
    billing: {
      meterEvents: {
        create: async (params: Stripe.Billing.MeterEventCreateParams, options?: Stripe.RequestOptions) => {
          calls.push({ params, options });
          const outcome = outcomes.shift() ?? 'ok';
          if (outcome !== 'ok') throw outcome;
          return { identifier: params.identifier };
        },
      },
    },
  } as unknown as StripeClient;
  return { stripe, calls };
}

function reporter(stripe: StripeClient, clock: { now: Date }) {
  return new UsageReporter({ db, now: () => clock.now, stripe, config: CONFIG, log: server.app.log });
}

const report = (runId: string) => db.selectFrom('billing_usage_reports').selectAll().where('run_id', '=', runId).executeTakeFirstOrThrow();

describe('recordExtraUsage', () => {
  it('keeps only the part of a charge past the limit, once per run, and nothing on a trial', async () => {
    const onTrial = await chargedRun(50);
    expect(server.countRows('billing_usage_reports')).toBe(0);
    await onPaidPlan(1_990);
    const crossing = await chargedRun(20);
    const past = await chargedRun(5);
    expect(await report(crossing)).toMatchObject({ slans: 10, milli_slans: 10_000, state: 'pending', attempts: 0 });
    expect(await report(past)).toMatchObject({ slans: 5, milli_slans: 5_000 });
    // The same run recorded again (a retried close) is still one report.
    await db.transaction().execute((trx) => recordExtraUsage(trx, { groupId, runId: past, cost: 5, now: new Date() }));
    expect(server.countRows('billing_usage_reports')).toBe(2);
    expect(await db.selectFrom('billing_usage_reports').select('run_id').where('run_id', '=', onTrial).executeTakeFirst()).toBeUndefined();
  });
});

describe('UsageReporter', () => {
  it('retries the network, 5xx and 429 with backoff, then sends once with the run as identifier and key', async () => {
    await onPaidPlan(2_000);
    const runId = await chargedRun(1.5);
    const clock = { now: new Date() };
    const { stripe, calls } = scriptedStripe([new Stripe.errors.StripeConnectionError({ message: 'socket hang up' }), new Stripe.errors.StripeRateLimitError({ message: 'Too many requests', statusCode: 429 })]);
    const meter = reporter(stripe, clock);

    await meter.run();
    expect(await report(runId)).toMatchObject({ state: 'pending', attempts: 1, last_error: 'socket hang up', next_attempt_at: new Date(clock.now.getTime() + backoffMs(1)).toISOString() });
    await meter.run();
    expect(calls).toHaveLength(1);

    clock.now = new Date(clock.now.getTime() + backoffMs(1));
    await meter.run();
    expect(await report(runId)).toMatchObject({ state: 'pending', attempts: 2, next_attempt_at: new Date(clock.now.getTime() + backoffMs(2)).toISOString() });

    clock.now = new Date(clock.now.getTime() + backoffMs(2));
    await meter.run();
    await meter.run();
    expect(await report(runId)).toMatchObject({ state: 'sent', attempts: 3, last_error: null, next_attempt_at: null, reported_at: clock.now.toISOString() });
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.options?.idempotencyKey)).toEqual(Array(3).fill(`meter-run-${runId}`));
    expect(calls[2]?.params).toMatchObject({ event_name: 'autoasesor_extra_slans', identifier: `run-${runId}`, payload: { stripe_customer_id: 'cus_contador', value: '1500' } });
  });

  it('gives up on a refused request and on a firm with no Stripe customer', async () => {
    await onPaidPlan(2_000);
    const refused = await chargedRun(2);
    const { stripe, calls } = scriptedStripe([new Stripe.errors.StripeInvalidRequestError({ message: 'No such customer', statusCode: 400 })]);
    const clock = { now: new Date() };
    await reporter(stripe, clock).run();
    expect(await report(refused)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'No such customer' });

    await db.updateTable('subscriptions').set({ stripe_customer_id: null }).where('group_id', '=', groupId).execute();
    const orphan = await chargedRun(2);
    await reporter(stripe, clock).run();
    expect(await report(orphan)).toMatchObject({ state: 'failed', last_error: 'La empresa no tiene cliente en Stripe' });
    clock.now = new Date(clock.now.getTime() + 24 * 60 * 60_000);
    await reporter(stripe, clock).run();
    expect(calls).toHaveLength(1);
  });
});
