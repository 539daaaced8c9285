import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { catalogueResponseSchema, flowIdParamsSchema, flowResponseSchema, flowsPaths } from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { attachment } from '../storage/download.ts';
import { toFlowSummary } from './catalogue.ts';
import type { FlowDirectory } from './directory.ts';
import { requireVisibleFlow } from './errors.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The catalogue (spec §7 Flows): signed-in users read it; robot code never leaves the server. The
 * built-in flows come first, then the firm's macros the user may see (issue 41).
 */
export function registerFlowsRoutes(app: FastifyInstance, ctx: AppContext, flows: FlowDirectory): void {
  app.get(flowsPaths.catalogue, { schema: routeSchema({ tag: 'flows', summary: 'The flow catalogue', response: { 200: catalogueResponseSchema } }) }, async (request) => {
    const { groupId, userId } = await requireSession(request, ctx);
    return { items: (await flows.flowsFor(groupId, userId)).map(toFlowSummary) };
  });

  const flowSchema = routeSchema({ tag: 'flows', summary: 'A flow\'s whole definition', params: flowIdParamsSchema, response: { 200: flowResponseSchema } });
  app.get(flowsPaths.flow, { schema: flowSchema }, async (request) => {
    const { groupId, userId } = await requireSession(request, ctx);
    const { id } = parseInput(flowIdParamsSchema, request.params);
    return (await requireVisibleFlow(flows, groupId, id, userId)).definition;
  });

  const templateSchema = routeSchema({ tag: 'flows', summary: 'A flow\'s input template (.xlsx download)', params: flowIdParamsSchema });
  app.get(flowsPaths.template, { schema: templateSchema }, async (request, reply) => {
    const { groupId, userId } = await requireSession(request, ctx);
    const { id } = parseInput(flowIdParamsSchema, request.params);
    const { definition, templatePath } = await requireVisibleFlow(flows, groupId, id, userId);
    const size = templatePath ? await stat(templatePath).then((info) => info.size, () => null) : null;
    if (templatePath === null || size === null) throw new HttpError(404, 'TEMPLATE_NOT_FOUND', 'Este robot no tiene plantilla');
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-length', size)
      .header('content-disposition', attachment(definition.template ?? basename(templatePath)))
      .send(createReadStream(templatePath));
  });
}
