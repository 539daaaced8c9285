// SCAFFOLD (issue 26 contract): replaced by the billing-account work.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { BillingAccount } from './account.ts';

export function registerBillingRoutes(_app: FastifyInstance, _ctx: AppContext, _billing: BillingAccount): void {}
