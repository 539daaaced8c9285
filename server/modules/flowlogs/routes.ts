import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { flowlogDetailQuerySchema, flowlogQuerySchema, flowlogResponseSchema, flowsPaths } from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { historyWorkbook, reportFilename } from './report.ts';
import { findFlowLog, flowlogStats, listFlowLogs, reportFlowLogs } from './service.ts';

const runIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la ejecución no es válido')) });

/**
 * A page of the history is written by fast-json-stringify from the contract's schema (Fastify's
 * response schema) instead of JSON.stringify: about a third of the time for a page of 12 runs, and a
 * page can then hold nothing the contract does not name.
 */
const pageResponseSchema = { 200: z.toJSONSchema(flowlogResponseSchema) };

export const RUN_NOT_FOUND_MESSAGE = 'No se ha encontrado esta ejecución';

/** The run history (spec §7 flowlog): only ever the caller's group's runs. */
export function registerFlowlogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(flowsPaths.flowlog, { schema: { response: pageResponseSchema } }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return listFlowLogs(ctx.db, groupId, parseInput(flowlogQuerySchema, request.query));
  });

  app.get(flowsPaths.flowlogStats, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return flowlogStats(ctx.db, groupId, ctx.now());
  });

  app.get(flowsPaths.flowlogReport, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const runs = await reportFlowLogs(ctx.db, groupId, parseInput(flowlogQuerySchema, request.query));
    return { filename: reportFilename(ctx.now()), base64: historyWorkbook(runs).toString('base64') };
  });

  app.get(flowsPaths.flowlogOne, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(runIdParamsSchema, request.params);
    const page = parseInput(flowlogDetailQuerySchema, request.query);
    const run = await findFlowLog(ctx.db, groupId, id, page, { now: ctx.now(), days: ctx.fileRetentionDays });
    // Another group's run answers exactly like a missing one.
    if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
    return run;
  });
}
