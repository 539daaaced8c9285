/**
 * Test support for the billing sync suites: a server whose Stripe is the stand-in (standins/stripe),
 * with the stand-in's webhooks delivered into app.inject, and a firm subscribed through a checkout
 * made with the SDK. Not product code.
 */
import Stripe from 'stripe';
import { startStripeStandin, STANDIN_CATALOGUE, type StripeStandin } from '../../../standins/stripe/standin.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { TEST_FLOWS_CONFIG } from '../runs/test-support.ts';
import { standinBilling } from './account-test-support.ts';
import { UsageReporter } from './usage-reports.ts';

export const PRICES = STANDIN_CATALOGUE.prices;

export interface BillingWorld {
  standin: StripeStandin;
  server: TestServer;
  /** The official SDK at the stand-in, as the tests' own hands. */
  stripe: Stripe;
  db: ReturnType<typeof connectDatabase>;
  /** Webhook deliveries the server answered, by status. */
  statuses: number[];
  /** A reporter of the usage past the limit, as a second server process would have one. */
  reporter(): UsageReporter;
  close(): Promise<void>;
}

export async function startBillingWorld(options: { runs?: boolean } = {}): Promise<BillingWorld> {
  const standin = await startStripeStandin({ retryDelaysMs: [1, 1] });
  const billing = standinBilling(standin);
  const server = await startTestServer({ ...(options.runs && TEST_FLOWS_CONFIG), billing, billingPlansIntervalMs: 0, billingUsageIntervalMs: 0 });
  const db = connectDatabase(server.database);
  const statuses: number[] = [];
  standin.setWebhookTarget(async (payload, headers) => {
    const response = await server.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers });
    statuses.push(response.statusCode);
    return { status: response.statusCode };
  });
  // The plans as the account's syncPlans leaves them: each knows its Stripe prices.
  await db.updateTable('plans').set({ stripe_price_id: PRICES.basic.id, stripe_extra_price_id: PRICES.basicExtra.id }).where('ref', '=', 'basic').execute();
  await db.updateTable('plans').set({ stripe_price_id: PRICES.pro.id, stripe_extra_price_id: PRICES.proExtra.id }).where('ref', '=', 'pro').execute();
  const url = new URL(standin.url);
  const stripe = new Stripe(standin.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
  return {
    standin,
    server,
    stripe,
    db,
    statuses,
    reporter: () => new UsageReporter({ db, now: () => new Date(), stripe: new Stripe(standin.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' }), config: billing, log: server.app.log }),
    close: async () => {
      await db.destroy();
      await server.close();
      await standin.close();
    },
  };
}

export interface Subscribed {
  jar: CookieJar;
  groupId: string;
  customerId: string;
  subscriptionId: string;
}

/** A firm registers (on its trial), then pays a checkout of `plan` on the stand-in; every webhook delivered. */
export async function subscribe(world: BillingWorld, email: string, options: { plan?: 'basic' | 'pro'; trialUsed?: number } = {}): Promise<Subscribed> {
  const plan = options.plan ?? 'basic';
  const jar = await registerUser(world.server.app, email);
  const { group_id: groupId } = await world.db.selectFrom('users').select('group_id').where('email', '=', email).executeTakeFirstOrThrow();
  if (options.trialUsed !== undefined) await world.db.updateTable('subscriptions').set({ used_slans: options.trialUsed }).where('group_id', '=', groupId).execute();
  // The trial began yesterday, as a firm's trial does before it pays (not in the paid period's second).
  const yesterday = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString();
  const trial = await world.db.selectFrom('subscriptions').select('created_at').where('group_id', '=', groupId).executeTakeFirstOrThrow();
  await world.db.updateTable('subscriptions').set({ created_at: yesterday(trial.created_at) }).where('group_id', '=', groupId).execute();
  await world.db.updateTable('credit_grants').set({ period_start: yesterday(trial.created_at), created_at: yesterday(trial.created_at) }).where('group_id', '=', groupId).execute();
  const customer = await world.stripe.customers.create({ email, metadata: { group_id: groupId } });
  const prices = plan === 'basic' ? [PRICES.basic.id, PRICES.basicExtra.id] : [PRICES.pro.id, PRICES.proExtra.id];
  const session = await world.stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: prices[0], quantity: 1 }, { price: prices[1] }],
    success_url: 'http://app.test/payments',
    cancel_url: 'http://app.test/payments',
    client_reference_id: groupId,
    subscription_data: { metadata: { group_id: groupId } },
  });
  await world.standin.completeCheckout(session.id);
  await world.standin.settled();
  const completed = await world.stripe.checkout.sessions.retrieve(session.id);
  return { jar, groupId, customerId: customer.id, subscriptionId: String(completed.subscription) };
}

/** The firm's subscriptions row. */
export async function subscriptionRow(world: BillingWorld, groupId: string) {
  return world.db.selectFrom('subscriptions').selectAll().where('group_id', '=', groupId).executeTakeFirstOrThrow();
}
