import type { FastifyInstance } from 'fastify';
import {
  a3ResultsBodySchema, a3RowsResponseSchema, altasPaths, idParamsSchema, idsBodySchema, markRegisteredBodySchema, pendingSummarySchema, receivedSummarySchema, redRecordsResponseSchema, redResultsBodySchema,
  submissionCreateSchema, submissionFileParamsSchema, submissionSchema, submissionsQuerySchema, submissionsResponseSchema, submissionUpdateSchema, updatedResponseSchema,
  ALTAS_RESULTS_BODY_LIMIT,
} from '#shared/api/altas.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import type { AltasService } from './service.ts';

/** Up to ALTAS_MAX_IDS_PER_REQUEST results of up to ~1.3 KB each. */
/** One page of answers (issue 39: never a big JSON body to parse on the event loop). */
const RESULTS_BODY_LIMIT = ALTAS_RESULTS_BODY_LIMIT;

/**
 * Spec §7 Form-to-flow submissions: the advisor's list, 'Nueva Alta', corrections and removal
 * (session), and the robots' records and results (session or `Authorization: Device <token>`).
 */
export function registerAltasSubmissionRoutes(app: FastifyInstance, ctx: AppContext, altas: AltasService): void {
  const tag = 'altas';
  const firmOf = async (request: Parameters<typeof requireSession>[0]) => requireSession(request, ctx);

  app.get(altasPaths.submissions, { schema: routeSchema({ tag, summary: "The firm's submissions, newest first", querystring: submissionsQuerySchema, response: { 200: submissionsResponseSchema } }) }, async (request) => {
    const { groupId } = await firmOf(request);
    const query = parseInput(submissionsQuerySchema, request.query);
    return { items: await altas.submissions.list(groupId, { flow: query.flow, company: query.company }) };
  });

  app.post(altasPaths.submissions, { schema: routeSchema({ tag, summary: "The advisor's 'Nueva Alta'", body: submissionCreateSchema, response: { 201: submissionSchema } }) }, async (request, reply) => {
    const session = await firmOf(request);
    const body = parseInput(submissionCreateSchema, request.body);
    const created = await altas.submissions.create({ groupId: session.groupId, userId: session.userId }, body, await altas.forms.fields(session.groupId));
    return reply.status(201).send(created);
  });

  app.patch(altasPaths.submission, { schema: routeSchema({ tag, summary: "Correct a submission's values", params: idParamsSchema, body: submissionUpdateSchema, response: { 200: submissionSchema } }) }, async (request) => {
    const { groupId } = await firmOf(request);
    const { id } = parseInput(idParamsSchema, request.params);
    const values = parseInput(submissionUpdateSchema, request.body);
    return altas.submissions.update(groupId, id, values, await altas.forms.fields(groupId));
  });

  app.delete(altasPaths.submission, { schema: routeSchema({ tag, summary: 'Remove a submission (its files are deleted)', params: idParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const { groupId } = await firmOf(request);
    await altas.submissions.remove(groupId, parseInput(idParamsSchema, request.params).id);
    return reply.status(204).send();
  });

  app.post(altasPaths.markRegistered, { schema: routeSchema({ tag, summary: "'Marcar como registrada': filed in RED by other means (409 if RED has it)", params: idParamsSchema, body: markRegisteredBodySchema, response: { 200: submissionSchema } }) }, async (request) => {
    const session = await firmOf(request);
    const { id } = parseInput(idParamsSchema, request.params);
    const { reference } = parseInput(markRegisteredBodySchema, request.body ?? {});
    await altas.robot.markRegistered({ groupId: session.groupId, userId: session.userId }, id, reference ?? null);
    return altas.submissions.get(session.groupId, id);
  });

  app.get(altasPaths.received, { schema: routeSchema({ tag, summary: 'How many altas the companies sent wait for RED (Home)', response: { 200: receivedSummarySchema } }) }, async (request) => {
    const { groupId } = await firmOf(request);
    return altas.submissions.received(groupId);
  });

  app.get(altasPaths.submissionFile, { schema: routeSchema({ tag, summary: 'A file the company attached to a submission', params: submissionFileParamsSchema }) }, async (request, reply) => {
    const { groupId } = await firmOf(request);
    const { id, fileId } = parseInput(submissionFileParamsSchema, request.params);
    const file = await altas.submissions.file(groupId, id, fileId);
    return reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });

  app.get(altasPaths.pending, { schema: routeSchema({ tag, summary: 'What RED and A3 have left to do', response: { 200: pendingSummarySchema } }) }, async (request) => {
    const { groupId } = await altas.robotCaller(request, ctx);
    return altas.robot.pending(groupId);
  });

  app.post(altasPaths.redRecords, { schema: routeSchema({ tag, summary: "The RED robot's records of these submissions, and why others cannot go", body: idsBodySchema, response: { 200: redRecordsResponseSchema } }) }, async (request) => {
    const { groupId } = await altas.robotCaller(request, ctx);
    const { ids } = parseInput(idsBodySchema, request.body);
    return altas.robot.redRecords(groupId, ids, await altas.forms.fields(groupId));
  });

  app.post(altasPaths.redResults, { schema: routeSchema({ tag, summary: 'What RED answered per submission', body: redResultsBodySchema, response: { 200: updatedResponseSchema } }), bodyLimit: RESULTS_BODY_LIMIT }, async (request) => {
    const { groupId } = await altas.robotCaller(request, ctx);
    const { results } = parseInput(redResultsBodySchema, request.body);
    return { updated: await altas.robot.redResults(groupId, results) };
  });

  app.post(altasPaths.a3Rows, { schema: routeSchema({ tag, summary: "A3's '202 – MA' rows of these submissions, and why others cannot go", body: idsBodySchema, response: { 200: a3RowsResponseSchema } }) }, async (request) => {
    const { groupId } = await altas.robotCaller(request, ctx);
    const { ids } = parseInput(idsBodySchema, request.body);
    return altas.robot.a3Rows(groupId, ids, await altas.forms.fields(groupId));
  });

  app.post(altasPaths.a3Results, { schema: routeSchema({ tag, summary: 'What the A3 import answered per submission', body: a3ResultsBodySchema, response: { 200: updatedResponseSchema } }), bodyLimit: RESULTS_BODY_LIMIT }, async (request) => {
    const { groupId } = await altas.robotCaller(request, ctx);
    const { results } = parseInput(a3ResultsBodySchema, request.body);
    return { updated: await altas.robot.a3Results(groupId, results) };
  });
}
