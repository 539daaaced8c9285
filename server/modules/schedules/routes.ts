import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  autopilotPaths, deviceScheduleParamsSchema, scheduleAdvanceRequestSchema, scheduleRemoveQuerySchema, slotLaunchRequestSchema, slotRunParamsSchema,
} from '#shared/api/autopilot.ts';
import {
  SCHEDULE_FAILED_MESSAGE, flowsPaths, scheduleByIdQuerySchema, scheduleRequestSchema,
  scheduleUpdateQuerySchema, schedulesQuerySchema,
} from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import type { DeviceAuth } from '../devices/auth.ts';
import { deviceOnly } from '../devices/auth.ts';
import { advanceMachineSchedule, checkMachineSchedule, launchSlot, listMachineSchedules, machineSlotRun, removeMachineSchedule } from './device-schedules.ts';
import { createSchedule, deleteSchedule, findSchedule, listSchedules, moveSchedule, scheduleExists } from './service.ts';

const flowParamsSchema = z.object({ flowId: z.string().check(z.minLength(1), z.maxLength(64)) });
const scheduleIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la programación no es válido')) });

/**
 * Spec §7 scheduled-flow calls, always within the caller's group. Failures that are not about one
 * field answer 'No se ha podido programar este robot' (spec §8), which the launcher shows as it is.
 */
export function registerSchedulesRoutes(app: FastifyInstance, ctx: AppContext, deviceAuth: DeviceAuth): void {
  app.post(flowsPaths.scheduleCreate, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { flowId } = parseInput(flowParamsSchema, request.params);
    const body = parseInput(scheduleRequestSchema, request.body);
    const schedule = await createSchedule(ctx.db, ctx.catalogue, member, flowId, body, ctx.now()).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error }, 'No se ha podido programar un robot');
      throw new HttpError(500, 'SCHEDULE_FAILED', SCHEDULE_FAILED_MESSAGE);
    });
    return reply.status(201).send(schedule);
  });

  app.get(flowsPaths.schedules, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return { items: await listSchedules(ctx.db, groupId, parseInput(schedulesQuerySchema, request.query)) };
  });

  app.get(flowsPaths.schedule, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { existSchedule } = parseInput(scheduleByIdQuerySchema, request.query);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    // The autopilot's check before a run: an answer, not a 404, when the schedule is gone.
    if (existSchedule) return { exists: await scheduleExists(ctx.db, groupId, id) };
    return findSchedule(ctx.db, groupId, id);
  });

  app.put(flowsPaths.schedule, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    const { scheduledDate } = parseInput(scheduleUpdateQuerySchema, request.query);
    return moveSchedule(ctx.db, ctx.catalogue, groupId, id, scheduledDate, ctx.now());
  });

  app.delete(flowsPaths.schedule, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    await deleteSchedule(ctx.db, groupId, id);
    return reply.status(204).send();
  });

  registerDeviceSchedulesRoutes(app, ctx, deviceAuth);
}

/**
 * The autopilot's schedule calls (shared/api/autopilot.ts), with `Authorization: Device <token>` only:
 * the machine's own schedules, its slots' runs, and moving on after a slot ran.
 */
function registerDeviceSchedulesRoutes(app: FastifyInstance, ctx: AppContext, auth: DeviceAuth): void {
  const { device, callerOf } = deviceOnly(auth);

  app.get(autopilotPaths.schedules, device, async (request) => {
    return { items: await listMachineSchedules(ctx.db, callerOf(request)) };
  });

  app.get(autopilotPaths.schedule, device, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    return checkMachineSchedule(ctx.db, callerOf(request), id);
  });

  app.post(autopilotPaths.launch, device, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const { scheduledDate } = parseInput(slotLaunchRequestSchema, request.body);
    return launchSlot(ctx.db, ctx.runs, callerOf(request), id, scheduledDate);
  });

  app.get(autopilotPaths.slotRun, device, async (request) => {
    const { id, runId } = parseInput(slotRunParamsSchema, request.params);
    return machineSlotRun(ctx.db, callerOf(request), id, runId);
  });

  app.put(autopilotPaths.schedule, device, async (request) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const move = parseInput(scheduleAdvanceRequestSchema, request.body);
    return advanceMachineSchedule(ctx.db, callerOf(request), id, move, ctx.now());
  });

  app.delete(autopilotPaths.schedule, device, async (request, reply) => {
    const { id } = parseInput(deviceScheduleParamsSchema, request.params);
    const { from } = parseInput(scheduleRemoveQuerySchema, request.query);
    await removeMachineSchedule(ctx.db, callerOf(request), id, from);
    return reply.status(204).send();
  });
}
