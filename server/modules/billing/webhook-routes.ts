// SCAFFOLD (issue 26 contract): replaced by the billing-sync work.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { BillingSync } from './sync.ts';

export async function registerStripeWebhookRoutes(_app: FastifyInstance, _ctx: AppContext, _sync: BillingSync): Promise<void> {}
