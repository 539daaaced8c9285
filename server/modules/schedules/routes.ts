import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  SCHEDULE_FAILED_MESSAGE, flowsPaths, scheduleByIdQuerySchema, scheduleRequestSchema,
  scheduleUpdateQuerySchema, schedulesQuerySchema,
} from '#shared/api/flows.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { createSchedule, deleteSchedule, findSchedule, listSchedules, moveSchedule, scheduleExists } from './service.ts';

const flowParamsSchema = z.object({ flowId: z.string().check(z.minLength(1), z.maxLength(64)) });
const scheduleIdParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la programación no es válido')) });

/**
 * Spec §7 scheduled-flow calls, always within the caller's group. Failures that are not about one
 * field answer 'No se ha podido programar este robot' (spec §8), which the launcher shows as it is.
 */
export function registerSchedulesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(flowsPaths.scheduleCreate, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { flowId } = parseInput(flowParamsSchema, request.params);
    const body = parseInput(scheduleRequestSchema, request.body);
    const schedule = await createSchedule(ctx.db, member, flowId, body, ctx.now()).catch((error: unknown) => {
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
    return moveSchedule(ctx.db, groupId, id, scheduledDate, ctx.now());
  });

  app.delete(flowsPaths.schedule, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scheduleIdParamsSchema, request.params);
    await deleteSchedule(ctx.db, groupId, id);
    return reply.status(204).send();
  });
}
