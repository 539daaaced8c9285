/** For the stand-in's own tests: a stand-in on a movable clock, the official SDK pointed at it, and the events it receives. */
import Stripe from 'stripe';
import { startStripeStandin, type StripeStandin } from './standin.ts';

export interface SdkFixture {
  standin: StripeStandin;
  stripe: Stripe;
  /** Every webhook received, verified with the SDK's own constructEvent (which proves the signature). */
  received: Stripe.Event[];
  clock: { now: Date };
  /** A customer with a paid subscription to `prices` (base quantity 1, metered without quantity). */
  subscribe(prices: readonly [string, string], card?: string): Promise<{ customer: Stripe.Customer; subscription: Stripe.Subscription; session: Stripe.Checkout.Session }>;
}

export async function startSdkFixture(): Promise<SdkFixture> {
  const clock = { now: new Date('2026-11-02T10:00:00Z') };
  const received: Stripe.Event[] = [];
  const standin = await startStripeStandin({ now: () => clock.now, retryDelaysMs: [1, 1] });
  const url = new URL(standin.url);
  const stripe = new Stripe(standin.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
  standin.setWebhookTarget(async (payload, headers) => {
    // Signed at the real time: constructEvent's tolerance checks it against Date.now().
    received.push(stripe.webhooks.constructEvent(payload, headers['stripe-signature'] ?? '', standin.webhookSecret));
    return { status: 200 };
  });

  async function subscribe(prices: readonly [string, string], card?: string) {
    const customer = await stripe.customers.create({ name: 'Asesoría Prueba', email: 'pagos@asesoria.test', metadata: { group_id: '7' } });
    const created = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: prices[0], quantity: 1 }, { price: prices[1] }],
      success_url: 'http://app.test/payments?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/payments',
      client_reference_id: '7',
      subscription_data: { metadata: { group_id: '7' } },
    });
    await standin.completeCheckout(created.id, card);
    const session = await stripe.checkout.sessions.retrieve(created.id);
    const subscription = await stripe.subscriptions.retrieve(String(session.subscription));
    return { customer, subscription, session };
  }

  return { standin, stripe, received, clock, subscribe };
}
