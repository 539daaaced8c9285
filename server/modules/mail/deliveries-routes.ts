import type { FastifyInstance } from 'fastify';
import { deliveriesQuerySchema, deliveriesResponseSchema, mailPaths } from '#shared/api/mail.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { RUN_NOT_FOUND_MESSAGE } from '../runs/run-state.ts';
import { runDeliveries } from './deliveries.ts';

/** A run's mail deliveries for its history detail; another firm's run answers like a missing one. */
export function registerMailDeliveryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const schema = routeSchema({ tag: 'mail', summary: "The messages a run caused and their delivery (no bodies)", querystring: deliveriesQuerySchema, response: { 200: deliveriesResponseSchema } });
  app.get(mailPaths.deliveries, { schema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { runId } = parseInput(deliveriesQuerySchema, request.query);
    const items = await runDeliveries(ctx.db, groupId, runId);
    if (items === null) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
    return { items };
  });
}
