import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  autopilotPaths, deviceScheduleCheckSchema, deviceScheduleParamsSchema, scheduleAdvanceRequestSchema, scheduleRemoveQuerySchema, slotLaunchRequestSchema,
  slotRunParamsSchema, slotRunSchema,
} from '#shared/api/autopilot.ts';
import {
  SCHEDULE_FAILED_MESSAGE, flowsPaths, scheduleByIdQuerySchema, scheduleExistsSchema, scheduleRequestSchema, scheduleUpdateQuerySchema,
  scheduledFlowSchema, schedulesQuerySchema, schedulesResponseSchema,
} from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { deviceOnly, type DeviceAuth } from '../devices/auth.ts';
import { flowParamsSchema } from '../flows/params.ts';
import type { RunLauncher } from '../runs/launcher.ts';
import { advanceMachineSchedule, checkMachineSchedule, launchSlot, listMachineSchedules, machineSlotRun, removeMachineSchedule } from './device-schedules.ts';
import { createSchedule, deleteSchedule, findSchedule, listSchedules, moveSchedule, scheduleExists, type ScheduleCatalogue } from './service.ts';

/** A schedule's `:id` on the signed-in routes: the same check and message as the autopilot's. */
const scheduleIdParamsSchema = deviceScheduleParamsSchema;

/**
 * Spec §7 scheduled-flow calls, always within the caller's group. Failures that are not about one
 * field answer 'No se ha podido programar este robot' (spec §8), which the launcher shows as it is.
 */
export function registerSchedulesRoutes(app: FastifyInstance, ctx: AppContext, catalogue: ScheduleCatalogue, runs: RunLauncher, deviceAuth: DeviceAuth): void {
  const createSchema = routeSchema({ tag: 'schedules', summary: 'Schedule a flow', params: flowParamsSchema, body: scheduleRequestSchema, response: { 201: scheduledFlowSchema } });
  app.post(flowsPaths.scheduleCreate, { schema: createSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { flowId } = parseInput(flowParamsSchema, request.params);
    const body = parseInput(scheduleRequestSchema, request.body);
    const schedule = await createSchedule(ctx.db, catalogue, member, flowId, body, ctx.now()).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error }, 'No se ha podido programar un robot');
      throw new HttpError(500, 'SCHEDULE_FAILED', SCHEDULE_FAILED_MESSAGE);
    });
    return reply.status(201).send(schedule);
  });

  const listSchema = routeSchema({ tag: 'schedules', summary: "The group's schedules", querystring: schedulesQuerySchema, response: { 200: schedulesResponseSchema } });
  app.get(flowsPaths.schedules, { schema: listSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return { items: await listSchedules(ctx.db, groupId, parseInput(schedulesQuerySchema, request.query)) };
  });

  const oneSchema = routeSchema({
    tag: 'schedules',
    summary: 'A schedule, or with ?existSchedule=true whether it exists',
    params: scheduleIdParamsSchema,
    querystring: scheduleByIdQuerySchema,
    response: { 200: z.union([scheduledFlowSchema, scheduleExistsSchema]) },
  });
  app.get(flowsPaths.schedule, { schema: oneSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { existSchedule } = parseInput(scheduleByIdQuerySchema, request.query);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    // The autopilot's check before a run: an answer, not a 404, when the schedule is gone.
    if (existSchedule) return { exists: await scheduleExists(ctx.db, groupId, id) };
    return findSchedule(ctx.db, groupId, id);
  });

  const moveSchema = routeSchema({
    tag: 'schedules',
    summary: 'Move a schedule to another date',
    params: scheduleIdParamsSchema,
    querystring: scheduleUpdateQuerySchema,
    response: { 200: scheduledFlowSchema },
  });
  app.put(flowsPaths.schedule, { schema: moveSchema }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    const { scheduledDate } = parseInput(scheduleUpdateQuerySchema, request.query);
    return moveSchedule(ctx.db, catalogue, groupId, id, scheduledDate, ctx.now());
  });

  app.delete(flowsPaths.schedule, { schema: routeSchema({ tag: 'schedules', summary: 'Delete a schedule', params: scheduleIdParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    await deleteSchedule(ctx.db, groupId, id);
    return reply.status(204).send();
  });

  registerDeviceSchedulesRoutes(app, ctx, runs, deviceAuth);
}

/**
 * The autopilot's schedule calls (shared/api/autopilot.ts), with `Authorization: Device <token>` only:
 * the machine's own schedules, its slots' runs, and moving on after a slot ran.
 */
function registerDeviceSchedulesRoutes(app: FastifyInstance, ctx: AppContext, runs: RunLauncher, auth: DeviceAuth): void {
  const { device, callerOf } = deviceOnly(auth);

  const tag = 'schedules';
  const listSchema = routeSchema({ tag, summary: "Device: this machine's schedules, soonest first", response: { 200: schedulesResponseSchema } });
  app.get(autopilotPaths.schedules, { ...device, schema: listSchema }, async (request) => {
    return { items: await listMachineSchedules(ctx.db, callerOf(request)) };
  });

  const checkSchema = routeSchema({ tag, summary: 'Device: whether a schedule still exists, and its date', params: deviceScheduleParamsSchema, response: { 200: deviceScheduleCheckSchema } });
  app.get(autopilotPaths.schedule, { ...device, schema: checkSchema }, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    return checkMachineSchedule(ctx.db, callerOf(request), id);
  });

  const launchSchema = routeSchema({
    tag,
    summary: "Device: the run of a schedule's slot, launched now if it has none",
    params: deviceScheduleParamsSchema,
    body: slotLaunchRequestSchema,
    response: { 200: slotRunSchema },
  });
  app.post(autopilotPaths.launch, { ...device, schema: launchSchema }, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const { scheduledDate } = parseInput(slotLaunchRequestSchema, request.body);
    return launchSlot(ctx.db, runs, callerOf(request), id, scheduledDate);
  });

  app.get(autopilotPaths.slotRun, { ...device, schema: routeSchema({ tag, summary: "Device: how a slot's run is going", params: slotRunParamsSchema, response: { 200: slotRunSchema } }) }, async (request) => {
    const { id, runId } = parseInput(slotRunParamsSchema, request.params);
    return machineSlotRun(ctx.db, callerOf(request), id, runId);
  });

  const advanceSchema = routeSchema({
    tag,
    summary: 'Device: move a repeating schedule on after a slot ran',
    params: deviceScheduleParamsSchema,
    body: scheduleAdvanceRequestSchema,
    response: { 200: scheduledFlowSchema },
  });
  app.put(autopilotPaths.schedule, { ...device, schema: advanceSchema }, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const move = parseInput(scheduleAdvanceRequestSchema, request.body);
    return advanceMachineSchedule(ctx.db, callerOf(request), id, move, ctx.now());
  });

  const removeSchema = routeSchema({
    tag,
    summary: 'Device: delete a one-off schedule after its slot ran',
    params: deviceScheduleParamsSchema,
    querystring: scheduleRemoveQuerySchema,
    response: { 204: null },
  });
  app.delete(autopilotPaths.schedule, { ...device, schema: removeSchema }, async (request, reply) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const { from } = parseInput(scheduleRemoveQuerySchema, request.query);
    await removeMachineSchedule(ctx.db, callerOf(request), id, from);
    return reply.status(204).send();
  });
}
