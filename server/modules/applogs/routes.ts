import type { FastifyInstance } from 'fastify';
import { appLogRequestSchema, applogsPath } from '#shared/api/applogs.ts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { optionalSession } from '../../http/session.ts';
import { recordAppLog } from './service.ts';

/** Public error reports from the renderer; limited generously so a crash loop cannot flood the table. */
export function registerAppLogsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(applogsPath, { config: { rateLimit: perIp(120, 60_000) } }, async (request, reply) => {
    const entry = parseInput(appLogRequestSchema, request.body);
    const session = await optionalSession(request, ctx);
    await recordAppLog(ctx.db, entry, request.client, session?.userId ?? null, ctx.now());
    return reply.status(201).send({ ok: true });
  });
}
