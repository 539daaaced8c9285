import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  flowLogDetailSchema, flowlogDetailQuerySchema, flowlogQuerySchema, flowlogReportSchema, flowlogResponseSchema, flowlogStatsSchema, flowsPaths,
} from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { fastSerializerCompiler, routeSchema } from '../../http/openapi.ts';
import { parseInput, queryParser } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { findFlowLog, listFlowLogs, reportFlowLogs } from './service.ts';
import { flowlogStats } from './stats.ts';

const runIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la ejecución no es válido')) });


export const RUN_NOT_FOUND_MESSAGE = 'No se ha encontrado esta ejecución';

/** The run history (spec §7 flowlog): only ever the caller's group's runs. */
export function registerFlowlogRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A page of the history is written by fast-json-stringify from the contract's schema: about a third of
  // JSON.stringify's time for a page of 12 runs, and a page can hold nothing the contract does not name.
  const pageSchema = routeSchema({ tag: 'flowlogs', summary: 'A page of the run history', querystring: flowlogQuerySchema, response: { 200: flowlogResponseSchema } });
  const pageFilter = queryParser(flowlogQuerySchema);
  app.get(flowsPaths.flowlog, { schema: pageSchema, serializerCompiler: fastSerializerCompiler }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return listFlowLogs(ctx.db, groupId, pageFilter(request.query));
  });

  app.get(flowsPaths.flowlogStats, { schema: routeSchema({ tag: 'flowlogs', summary: 'Counters of the history', response: { 200: flowlogStatsSchema } }) }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return flowlogStats(ctx.db, groupId, ctx.now());
  });

  const reportSchema = routeSchema({ tag: 'flowlogs', summary: 'The history the query selects as an .xlsx (base64)', querystring: flowlogQuerySchema, response: { 200: flowlogReportSchema } });
  app.get(flowsPaths.flowlogReport, { schema: reportSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const runs = await reportFlowLogs(ctx.db, groupId, parseInput(flowlogQuerySchema, request.query));
    // The workbook writer (and fflate's tables under it) loads with the first report, not at start.
    const { historyWorkbook, reportFilename } = await import('./report.ts');
    return { filename: reportFilename(ctx.now()), base64: historyWorkbook(runs).toString('base64') };
  });

  const oneSchema = routeSchema({
    tag: 'flowlogs',
    summary: 'One run with a page of its log lines',
    params: runIdParamsSchema,
    querystring: flowlogDetailQuerySchema,
    response: { 200: flowLogDetailSchema },
  });
  app.get(flowsPaths.flowlogOne, { schema: oneSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(runIdParamsSchema, request.params);
    const page = parseInput(flowlogDetailQuerySchema, request.query);
    const run = await findFlowLog(ctx.db, groupId, id, page, { now: ctx.now(), days: ctx.fileRetentionDays });
    // Another group's run answers exactly like a missing one.
    if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
    return run;
  });
}
