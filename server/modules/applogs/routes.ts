import type { FastifyInstance } from 'fastify';
import { appLogRequestSchema } from '#shared/api/applogs.ts';
import { applogsPath } from '#shared/api/applogs-path.ts';
import { okResponseSchema } from '#shared/api/auth.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { optionalSession } from '../../http/session.ts';
import { DEFAULT_APPLOG_LIMITS, pruneAppLogs, recordAppLog, type AppLogLimits } from './service.ts';

/**
 * A report's fields are capped by the schema (~30,000 characters in all); the body limit stops
 * anything much larger before it is read (the server-wide limit is 1 MiB).
 */
export const APPLOG_BODY_LIMIT = 64 * 1024;

/**
 * Public error reports from the renderer. Any guest can send them, so: a request rate per IP, a byte
 * budget per sender per hour, and a timer that prunes by age, count and total size (stopped on close).
 */
export function registerAppLogsRoutes(app: FastifyInstance, ctx: AppContext, overrides: Partial<AppLogLimits> = {}): void {
  const limits: AppLogLimits = { ...DEFAULT_APPLOG_LIMITS, ...overrides };

  const schema = routeSchema({ tag: 'applogs', summary: 'Report a client-side error (public)', body: appLogRequestSchema, response: { 201: okResponseSchema } });
  app.post(applogsPath, { schema, bodyLimit: APPLOG_BODY_LIMIT, config: { rateLimit: perIp(120, 60_000) } }, async (request, reply) => {
    const entry = parseInput(appLogRequestSchema, request.body);
    const session = await optionalSession(request, ctx);
    await recordAppLog(ctx.db, entry, { client: request.client, ip: request.ip, userId: session?.userId ?? null }, ctx.now(), limits);
    return reply.status(201).send({ ok: true });
  });

  let running: Promise<unknown> = Promise.resolve();
  const prune = () => {
    running = pruneAppLogs(ctx.db, ctx.now(), limits).then(
      (deleted) => {
        if (deleted > 0) app.log.info({ deleted }, 'Informes de error antiguos borrados');
      },
      (error: unknown) => app.log.error({ err: error }, 'No se han podido borrar los informes de error antiguos'),
    );
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    prune();
    await running;
    timer = setInterval(prune, limits.pruneEveryMs);
    // Pruning alone must not keep the process alive.
    timer.unref();
  });
  // preClose: before the database closes (its onClose hook), so no prune is cut off half-way.
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
