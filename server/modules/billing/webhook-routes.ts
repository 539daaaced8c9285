import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { okResponseSchema } from '#shared/api/auth.ts';
import { billingPaths } from '#shared/api/billing.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import type { BillingSync } from './sync.ts';

/** What Stripe posts, for the API document only: the route reads the raw bytes and lets the SDK check them. */
const stripeEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/**
 * POST /api/stripe/webhook. Stripe signs the exact bytes it sent, so this route lives in its own plugin
 * whose JSON parser keeps the body raw (the app's parser, http/json-body.ts, would parse it first).
 */
export async function registerStripeWebhookRoutes(app: FastifyInstance, _ctx: AppContext, sync: BillingSync): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    const schema = routeSchema({ tag: 'billing', summary: 'Stripe\'s signed events (the source of truth for subscriptions and invoices)', body: stripeEventSchema, response: { 200: okResponseSchema } });
    scope.post(billingPaths.stripeWebhook, { schema }, async (request) => {
      const signature = request.headers['stripe-signature'];
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await sync.receive(raw, typeof signature === 'string' ? signature : undefined);
      return { ok: true } as const;
    });
  });
}
