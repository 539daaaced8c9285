import fastifyMultipart from '@fastify/multipart';
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  DEVICE_FINISH_BODY_LIMIT, DEVICE_FINISH_OUTPUTS_MAX_BYTES, claimRunRequestSchema, deviceFinishAnswerSchema, deviceIdentitySchema, deviceLinkRequestSchema, deviceLinkSchema,
  deviceRunFileParamsSchema, deviceRunOutcomeSchema, deviceRunParamsSchema, deviceRunReportAnswerSchema, deviceRunReportSchema, devicesPaths,
  leasedRunResponseSchema, nextRunQuerySchema,
} from '#shared/api/devices.ts';
import { machineIdParamsSchema } from '#shared/api/machines.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { deviceOnly, type DeviceAuth } from './auth.ts';
import type { DeviceRunService } from './device-runs.ts';
import { checkFinishFiles, readMultipartFinish } from './finish-upload.ts';
import { deviceIdentity, linkDevice, revokeDeviceToken } from './link.ts';

/** Aborts when the caller's connection closes before the answer is sent (a long poll whose desktop went away). */
function connectionGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Devices (shared/api/devices.ts): linking a PC and revoking it, signed in; and the device-run API,
 * with `Authorization: Device <token>` only (a cookie on these routes counts for nothing).
 */
export function registerDevicesRoutes(app: FastifyInstance, ctx: AppContext, auth: DeviceAuth, deviceRuns: DeviceRunService): void {
  const { device, callerOf } = deviceOnly(auth);

  const linkSchema = routeSchema({
    tag: 'devices',
    summary: 'Link this PC to the signed-in user and issue its device token',
    body: deviceLinkRequestSchema,
    response: { 200: deviceLinkSchema, 201: deviceLinkSchema },
  });
  app.post(devicesPaths.link, { schema: linkSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const body = parseInput(deviceLinkRequestSchema, request.body);
    const { link, created } = await linkDevice(ctx.db, member, body, ctx.now());
    return reply.status(created ? 201 : 200).send(link);
  });

  const revokeSchema = routeSchema({ tag: 'devices', summary: "Revoke a machine's device token", params: machineIdParamsSchema, response: { 204: null } });
  app.delete(devicesPaths.deviceToken, { schema: revokeSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    await revokeDeviceToken(ctx.db, member, id);
    return reply.status(204).send();
  });

  const tag = 'devices';
  app.get(devicesPaths.me, { ...device, schema: routeSchema({ tag, summary: 'Device: which machine and user this token is for', response: { 200: deviceIdentitySchema } }) }, async (request) => {
    return deviceIdentity(ctx.db, callerOf(request));
  });

  const nextSchema = routeSchema({
    tag,
    summary: 'Device: the next run queued for this machine (long poll; 204 when none)',
    querystring: nextRunQuerySchema,
    response: { 200: leasedRunResponseSchema, 204: null },
  });
  app.get(devicesPaths.nextRun, { ...device, schema: nextSchema }, async (request, reply) => {
    const caller = callerOf(request);
    const { wait } = parseInput(nextRunQuerySchema, request.query);
    const run = await deviceRuns.next(caller, wait, connectionGone(reply));
    return run ? { run } : reply.status(204).send();
  });

  const claimSchema = routeSchema({ tag, summary: 'Device: lease one run of this machine now', body: claimRunRequestSchema, response: { 200: leasedRunResponseSchema } });
  app.post(devicesPaths.claimRun, { ...device, schema: claimSchema }, async (request) => {
    const { executionToken } = parseInput(claimRunRequestSchema, request.body);
    return { run: await deviceRuns.claim(callerOf(request), executionToken) };
  });

  const reportSchema = routeSchema({
    tag,
    summary: "Device: a run's new log lines and progress; renews the lease",
    params: deviceRunParamsSchema,
    body: deviceRunReportSchema,
    response: { 200: deviceRunReportAnswerSchema },
  });
  app.post(devicesPaths.report, { ...device, schema: reportSchema }, async (request) => {
    const { runId } = parseInput(deviceRunParamsSchema, request.params);
    const report = parseInput(deviceRunReportSchema, request.body);
    return deviceRuns.report(callerOf(request), runId, report);
  });

  // The uploads of a run's FileUpload inputs, streamed to the machine before its robot starts.
  app.get(devicesPaths.runFile, { ...device, schema: routeSchema({ tag, summary: "Device: the bytes of one of a run's uploads", params: deviceRunFileParamsSchema }) }, async (request, reply) => {
    const { runId, uploadId } = parseInput(deviceRunFileParamsSchema, request.params);
    const { file, path } = await deviceRuns.runFile(callerOf(request), runId, uploadId);
    return reply
      .header('content-type', file.content_type)
      .header('content-length', Number(file.size))
      .send(createReadStream(path));
  });

  // JSON, or (with output files sent to the server) multipart: the outcome, then the files (finish-upload.ts).
  const finishSchema = routeSchema({
    tag,
    summary: 'Device: end a run with its outcome (409 when it was already closed)',
    params: deviceRunParamsSchema,
    body: deviceRunOutcomeSchema,
    response: { 200: deviceFinishAnswerSchema, 409: deviceFinishAnswerSchema },
  });
  // Encapsulated: the multipart parser serves the finish only.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: DEVICE_FINISH_OUTPUTS_MAX_BYTES + 1, files: 1000, fields: 1, fieldSize: DEVICE_FINISH_BODY_LIMIT, parts: 1001 },
    });
    scope.post(devicesPaths.finish, { ...device, schema: finishSchema, bodyLimit: DEVICE_FINISH_BODY_LIMIT }, async (request, reply) => {
      const { runId } = parseInput(deviceRunParamsSchema, request.params);
      let files: Buffer[] | undefined;
      let body = request.body;
      if (request.isMultipart()) ({ outcome: body, files } = await readMultipartFinish(request));
      const outcome = parseInput(deviceRunOutcomeSchema, body);
      if (files) checkFinishFiles(outcome.kind === 'result' ? outcome.outputs : [], files);
      const closed = await deviceRuns.finish(callerOf(request), runId, outcome, files);
      return reply.status(closed ? 200 : 409).send({ closed });
    });
  });
}
