import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { executionRequestSchema, executionStateQuerySchema, executionStateSchema, flowsPaths } from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { flowParamsSchema } from '../flows/params.ts';
import { fileExpired, isExpired } from '../retention/retention.ts';
import type { FileStorage } from '../storage/service.ts';
import { attachment } from '../storage/download.ts';
import type { RunService } from './service.ts';

const tokenParamsSchema = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });
const outputParamsSchema = z.object({
  id: z.string().check(z.uuid('El identificador de la ejecución no es válido')),
  name: z.string().check(z.minLength(1), z.maxLength(255)),
});

export const OUTPUT_NOT_FOUND_MESSAGE = 'No se ha encontrado este archivo de resultado';

/**
 * Executions (spec §7 Flows): launch (202 and the run's state), the state the launcher polls, stop,
 * and the download of a run's output files. Only ever the caller's group's runs.
 */
export function registerRunsRoutes(app: FastifyInstance, ctx: AppContext, runs: RunService, storage: FileStorage): void {
  const launchSchema = routeSchema({ tag: 'runs', summary: 'Launch a flow (202 and the run\'s state)', params: flowParamsSchema, body: executionRequestSchema, response: { 202: executionStateSchema } });
  app.post(flowsPaths.execution, { schema: launchSchema }, async (request, reply) => {
    const { userId, groupId } = await requireSession(request, ctx);
    const { flowId } = parseInput(flowParamsSchema, request.params);
    const body = parseInput(executionRequestSchema, request.body);
    const run = await runs.launchRun({
      groupId,
      userId,
      flowId,
      inputs: body.inputs,
      idempotencyKey: body.idempotencyKey,
      ...(body.acceptExtraUsage !== undefined && { acceptExtraUsage: body.acceptExtraUsage }),
      ...(body.machineId !== undefined && { machineId: body.machineId }),
      ...(body.localLaunch !== undefined && { localLaunch: body.localLaunch }),
    });
    return reply.status(202).send(await runs.state(groupId, run.execution_token));
  });

  const stateSchema = routeSchema({
    tag: 'runs',
    summary: 'A run\'s state (long poll with ?wait=)',
    params: tokenParamsSchema,
    querystring: executionStateQuerySchema,
    response: { 200: executionStateSchema },
  });
  app.get(flowsPaths.executionState, { schema: stateSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { token } = parseInput(tokenParamsSchema, request.params);
    return runs.state(groupId, token, parseInput(executionStateQuerySchema, request.query));
  });

  const stopSchema = routeSchema({ tag: 'runs', summary: 'Stop a run', params: tokenParamsSchema, response: { 200: executionStateSchema } });
  app.post(flowsPaths.executionStop, { schema: stopSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { token } = parseInput(tokenParamsSchema, request.params);
    return runs.stop(groupId, token);
  });

  app.get(flowsPaths.outputFile, { schema: routeSchema({ tag: 'runs', summary: 'Download one of a run\'s output files', params: outputParamsSchema }) }, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id, name } = parseInput(outputParamsSchema, request.params);
    const file = await ctx.db
      .selectFrom('stored_files')
      .select(['name', 'size', 'content_type', 'storage_key', 'created_at', 'expired_at'])
      .where('run_id', '=', id)
      .where('group_id', '=', groupId)
      .where('kind', '=', 'output')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!file) throw new HttpError(404, 'OUTPUT_NOT_FOUND', OUTPUT_NOT_FOUND_MESSAGE);
    // Past its retention (deleted, or about to be): 410 and why, never a file half gone.
    if (isExpired(file, ctx.now(), ctx.fileRetentionDays)) throw fileExpired(ctx.fileRetentionDays);
    return reply
      .header('content-type', file.content_type)
      .header('content-length', Number(file.size))
      .header('content-disposition', attachment(file.name))
      .send(createReadStream(storage.pathOf(file.storage_key)));
  });
}
