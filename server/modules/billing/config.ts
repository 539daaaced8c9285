/**
 * Stripe settings (issue 26). Without STRIPE_SECRET_KEY the server takes no payments: /payments shows
 * the plans and says to write to support, and the billing changes answer 409 PAYMENTS_NOT_CONFIGURED. STRIPE_API_BASE points the
 * official SDK at another Stripe-compatible endpoint (the local stand-in, standins/stripe); unset, it
 * talks to api.stripe.com unchanged.
 */
export interface BillingConfig {
  secretKey: string;
  /** whsec_…: the webhook endpoint's signing secret (Stripe-Signature). */
  webhookSecret: string;
  /** Unset: Stripe itself. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
  /** The billing meter's event name for usage past a plan's limit. */
  meterEventName: string;
}

export const DEFAULT_METER_EVENT_NAME = 'autoasesor_extra_slans';

type Env = Record<string, string | undefined>;

/** Null when no key is set. A key without a webhook secret, or a bad STRIPE_API_BASE, stops the server at start. */
export function billingConfigFromEnv(env: Env): BillingConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!webhookSecret) throw new Error('Falta STRIPE_WEBHOOK_SECRET: sin ella no se pueden comprobar los avisos de Stripe');
  return { secretKey, webhookSecret, api: apiOf(env.STRIPE_API_BASE?.trim()), meterEventName: env.STRIPE_METER_EVENT?.trim() || DEFAULT_METER_EVENT_NAME };
}

function apiOf(base: string | undefined): BillingConfig['api'] {
  if (!base) return null;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`STRIPE_API_BASE no es una dirección válida: "${base}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`STRIPE_API_BASE debe empezar por http:// o https://: "${base}"`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}
