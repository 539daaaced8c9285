// SCAFFOLD (issue 26 contract): replaced by the support-tickets work.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { SupportTickets } from './tickets.ts';

/** The firm's ticket routes, the support team's (admin) routes and the inbound email hook. */
export async function registerTicketRoutes(_app: FastifyInstance, _ctx: AppContext, _tickets: SupportTickets): Promise<void> {}
