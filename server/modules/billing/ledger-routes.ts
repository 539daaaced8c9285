// SCAFFOLD (issue 26 contract): replaced by the billing-sync work.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export function registerUsageReportRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
