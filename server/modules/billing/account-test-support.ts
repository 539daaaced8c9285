/**
 * Test support for the billing account suites: a member of a firm, and a firm's subscription arranged
 * as the webhooks would leave it. Not product code.
 */
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { startStripeStandin, type StripeStandin } from '../../../standins/stripe/standin.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { BillingAccount } from './account.ts';
import type { BillingConfig } from './config.ts';
import { createStripeClient } from './stripe-client.ts';

/** A user who joined the owner's firm as a member (the colleagues' invitation, done by hand). */
export async function registerMember(server: TestServer, db: Kysely<Database>, email: string, ownerEmail: string): Promise<CookieJar> {
  const jar = await registerUser(server.app, email, 'Luis Martín');
  const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', ownerEmail).executeTakeFirstOrThrow();
  await db.updateTable('users').set({ group_id: groupId, role: 'member' }).where('email', '=', email).execute();
  return jar;
}

export async function groupOf(db: Kysely<Database>, email: string): Promise<string> {
  return (await db.selectFrom('users').select('group_id').where('email', '=', email).executeTakeFirstOrThrow()).group_id;
}

export interface ArrangedSubscription {
  planRef?: string;
  status?: string;
  customerId?: string | null;
  subscriptionId?: string | null;
  periodEnd?: string;
}

/** The firm's subscription row as the webhooks write it after a checkout. */
export async function arrangeSubscription(db: Kysely<Database>, groupId: string, arranged: ArrangedSubscription): Promise<void> {
  const plan = arranged.planRef ? await db.selectFrom('plans').select('id').where('ref', '=', arranged.planRef).executeTakeFirstOrThrow() : undefined;
  await db
    .updateTable('subscriptions')
    .set({
      ...(plan && { plan_id: plan.id }),
      ...(arranged.status !== undefined && { status: arranged.status }),
      ...(arranged.customerId !== undefined && { stripe_customer_id: arranged.customerId }),
      ...(arranged.subscriptionId !== undefined && { stripe_subscription_id: arranged.subscriptionId }),
      ...(arranged.periodEnd !== undefined && { current_period_end: arranged.periodEnd }),
    })
    .where('group_id', '=', groupId)
    .execute();
}

/** The server's billing settings for a stand-in (standins/stripe). */
export function standinBilling(standin: { url: string; secretKey: string; webhookSecret: string }): BillingConfig {
  return { secretKey: standin.secretKey, webhookSecret: standin.webhookSecret, api: { host: '127.0.0.1', port: Number(new URL(standin.url).port), protocol: 'http' }, meterEventName: 'autoasesor_extra_slans' };
}

/** The hosted page's session id, from the url the API answered. */
export function sessionIdOf(url: string): string {
  const id = /\/c\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(url)?.[1];
  if (!id) throw new Error(`No es una página de pago del stand-in: ${url}`);
  return id;
}

/** Billing info that passes the checks (a valid CIF), as the owner enters it before a first checkout. */
export const TEST_BILLING_INFO = { name: 'Asesoría Pérez SL', taxId: 'B12345674', email: 'facturas@asesoria.es', addressLine1: 'Calle Mayor 1', postalCode: '28013', city: 'Madrid', province: 'Madrid', country: 'ES' };

/** The owner saves the firm's billing info (at Stripe and here), as a checkout needs it first. */
export async function saveBillingInfo(owner: CookieJar, info: Record<string, unknown> = TEST_BILLING_INFO): Promise<void> {
  const response = await owner.put('/api/subscriptions/billing-info', info);
  if (response.statusCode !== 200) throw new Error(`billing info: ${response.statusCode} ${response.body}`);
}

/**
 * The owner subscribes through the API (saving the billing info first when the firm has none) and pays on the stand-in's page; the row is then arranged as the
 * webhooks would write it (these suites keep webhooks off, so they test the account alone).
 */
export async function subscribe(
  owner: CookieJar,
  db: Kysely<Database>,
  stripe: Stripe,
  standin: { completeCheckout(sessionId: string, card?: string): Promise<unknown> },
  groupId: string,
  planRef: string,
  card = '4242424242424242',
): Promise<{ customerId: string; subscriptionId: string }> {
  if ((await owner.get('/api/subscriptions/billing-info')).json() === null) await saveBillingInfo(owner);
  const response = await owner.post('/api/subscriptions/checkout-session', { planRef });
  if (response.statusCode !== 200) throw new Error(`checkout: ${response.statusCode} ${response.body}`);
  const sessionId = sessionIdOf((response.json() as { url: string }).url);
  await standin.completeCheckout(sessionId, card);
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  const customerId = typeof session.customer === 'string' ? session.customer : session.customer?.id;
  if (!subscriptionId || !customerId) throw new Error('El pago no ha creado la suscripción');
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const periodEnd = new Date(Math.max(...subscription.items.data.map((item) => item.current_period_end)) * 1000).toISOString();
  await arrangeSubscription(db, groupId, { planRef, status: 'active', customerId, subscriptionId, periodEnd });
  return { customerId, subscriptionId };
}

/** The stand-in with its webhooks kept there (these suites arrange the rows they would write), and the SDK on it. */
export async function startQuietStandin(): Promise<{ standin: StripeStandin; stripe: Stripe }> {
  const standin = await startStripeStandin();
  standin.setWebhookTarget(null);
  return { standin, stripe: createStripeClient(standinBilling(standin)) };
}

export interface StandinFirm {
  server: TestServer;
  db: Kysely<Database>;
  ana: CookieJar;
  anaGroup: string;
  /** What the server's hourly pass does, on the same database. */
  syncPlans(): Promise<void>;
}

/** A server billing through the stand-in, its plans read from the stand-in's prices, and Ana's firm on it. */
export async function startStandinFirm(standin: StripeStandin, stripe: Stripe): Promise<StandinFirm> {
  const server = await startTestServer({ billing: standinBilling(standin), billingPlansIntervalMs: 0, billingUsageIntervalMs: 0 });
  const db = connectDatabase(server.database);
  const syncPlans = () => new BillingAccount({ db, now: () => new Date(), stripe, config: standinBilling(standin), publicUrl: 'http://app.test', log: server.app.log }).syncPlans();
  await syncPlans();
  const ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  return { server, db, ana, anaGroup: await groupOf(db, 'ana@asesoria.es'), syncPlans };
}

export async function closeStandinFirm({ server, db }: Pick<StandinFirm, 'server' | 'db'>): Promise<void> {
  await db.destroy();
  await server.close();
}
