import { billingPaths } from '#shared/api/billing.ts';
import { startStripeStandin, type MeterEventRecord, type StripeEventRecord, type StripeStandin } from '../standins/stripe/standin.ts';

/**
 * The Stripe stand-in as the browser tests use it (standins/stripe/): the server's official SDK reaches
 * it through STRIPE_API_BASE, it hosts the checkout page the browser pays on, and it sends signed
 * webhooks to the server's /api/stripe/webhook. The global setup starts it; specs, in another process,
 * act through its /_standin/ controls with the functions below (E2E_STRIPE_URL names it).
 */
export { STANDIN_CATALOGUE } from '../standins/stripe/standin.ts';

export interface E2eStripe {
  standin: StripeStandin;
  /** What the server reads (server/modules/billing/config.ts). */
  serverEnv: Record<string, string>;
  /** Once the server's address is known: webhooks go to its endpoint. */
  sendWebhooksTo(baseUrl: string): void;
}

export async function startE2eStripe(): Promise<E2eStripe> {
  const standin = await startStripeStandin();
  return {
    standin,
    serverEnv: { STRIPE_SECRET_KEY: standin.secretKey, STRIPE_WEBHOOK_SECRET: standin.webhookSecret, STRIPE_API_BASE: standin.url },
    sendWebhooksTo: (baseUrl) => standin.setWebhookTarget(`${baseUrl.replace(/\/+$/, '')}${billingPaths.stripeWebhook}`),
  };
}

/** A subscription as the controls list it: the fields specs look at. */
export interface StandinSubscription {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  schedule: string | null;
  latest_invoice: string | null;
  items: { data: { id: string; price: { id: string; lookup_key: string | null }; current_period_start: number; current_period_end: number }[] };
}

function standinUrl(): string {
  const url = process.env.E2E_STRIPE_URL;
  if (!url) throw new Error('E2E_STRIPE_URL is not set: run through playwright.config.ts (global setup).');
  return url;
}

async function control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${standinUrl()}/_standin/${path}`, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`The Stripe stand-in answered ${response.status} to ${method} ${path}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** What the hosted page's button does, without the page: card defaults to 4242 4242 4242 4242. */
export const completeCheckout = (sessionId: string, card?: string) => control<{ redirectUrl: string }>('POST', `checkout/${encodeURIComponent(sessionId)}/complete`, card === undefined ? {} : { card });

/** The end of the subscription's current period (cancel, plan switch, invoice and charge). */
export const advancePeriod = (subscriptionId: string) => control<{ invoiceId: string | null }>('POST', `subscriptions/${encodeURIComponent(subscriptionId)}/advance`);

export const failNextPayment = (customerId: string) => control<object>('POST', `customers/${encodeURIComponent(customerId)}/fail-next-payment`).then(() => undefined);

/** Retries an open invoice (after a new card). */
export const payInvoice = (invoiceId: string) => control<object>('POST', `invoices/${encodeURIComponent(invoiceId)}/pay`).then(() => undefined);

/** Every event, oldest first, with its delivery attempts. */
export const stripeEvents = () => control<StripeEventRecord[]>('GET', 'events');

export const resendEvent = (eventId: string) => control<object>('POST', `events/${encodeURIComponent(eventId)}/resend`).then(() => undefined);

/** Every meter event POST received (duplicates flagged). */
export const meterEvents = () => control<MeterEventRecord[]>('GET', 'meter-events');

/** Null: events are kept, not sent. */
export const setWebhookTarget = (url: string | null) => control<object>('POST', 'webhook-target', { url }).then(() => undefined);

/** A customer's subscriptions (canceled ones included), newest first. */
export const subscriptionsOf = (customerId: string) => control<StandinSubscription[]>('GET', `subscriptions?customer=${encodeURIComponent(customerId)}`);
