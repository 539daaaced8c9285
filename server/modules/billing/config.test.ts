import { describe, expect, it } from 'vitest';
import { billingConfigFromEnv, DEFAULT_METER_EVENT_NAME } from './config.ts';

describe('billingConfigFromEnv', () => {
  it('takes no payments without a key', () => {
    expect(billingConfigFromEnv({})).toBeNull();
    expect(billingConfigFromEnv({ STRIPE_SECRET_KEY: '  ' })).toBeNull();
  });

  it('needs the webhook secret with a key', () => {
    expect(() => billingConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow('Falta STRIPE_WEBHOOK_SECRET');
  });

  it('talks to Stripe itself unless STRIPE_API_BASE names another endpoint', () => {
    expect(billingConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y' })).toEqual({ secretKey: 'sk_test_x', webhookSecret: 'whsec_y', api: null, meterEventName: DEFAULT_METER_EVENT_NAME });
    const local = billingConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y', STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(local?.api).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(() => billingConfigFromEnv({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'w', STRIPE_API_BASE: 'ftp://x' })).toThrow('STRIPE_API_BASE');
  });
});
