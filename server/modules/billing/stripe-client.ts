import Stripe from 'stripe';
import type { BillingConfig } from './config.ts';

export type StripeClient = Stripe;

/**
 * The official SDK, at Stripe or at the endpoint STRIPE_API_BASE names. The SDK retries network
 * failures and 409/429/5xx with idempotency keys of its own; a call is bounded to 20 s.
 */
export function createStripeClient(config: BillingConfig): StripeClient {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'AutoAsesor' },
    ...(config.api && { host: config.api.host, port: config.api.port, protocol: config.api.protocol }),
  });
}
