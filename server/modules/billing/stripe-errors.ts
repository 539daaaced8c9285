import Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import { PAYMENTS_NOT_CONFIGURED_MESSAGE, STRIPE_UNAVAILABLE_MESSAGE } from '#shared/api/billing.ts';
import { HttpError } from '../../http/errors.ts';
import type { StripeClient } from './stripe-client.ts';

export function paymentsNotConfigured(): HttpError {
  return new HttpError(409, 'PAYMENTS_NOT_CONFIGURED', PAYMENTS_NOT_CONFIGURED_MESSAGE);
}

export function stripeUnavailable(): HttpError {
  return new HttpError(502, 'STRIPE_UNAVAILABLE', STRIPE_UNAVAILABLE_MESSAGE);
}

/** The client, or 409 on a server without Stripe keys: every change needs Stripe. */
export function requireStripe(stripe: StripeClient | null): StripeClient {
  if (!stripe) throw paymentsNotConfigured();
  return stripe;
}

/** Stripe answered that the object does not exist (an id of another account, or one already gone). */
export function isMissingAtStripe(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && (error.code === 'resource_missing' || error.statusCode === 404);
}

/**
 * Runs a call to Stripe. Whatever Stripe throws (no connection, an API or rate-limit error once the SDK's
 * own retries are spent, or an invalid request, which is a bug of ours) becomes 502 STRIPE_UNAVAILABLE
 * with a log line, so the user reads one clear message and the operator finds the cause. Card errors
 * cannot happen here: cards are typed on Stripe's hosted pages.
 */
export async function atStripe<T>(log: FastifyBaseLogger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const detail = error instanceof Stripe.errors.StripeError ? { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId } : {};
    log.error({ err: error, stripe: detail }, `Stripe no ha podido ${what}`);
    throw stripeUnavailable();
  }
}
