import { z } from 'zod/mini';
import { scheduledFlowSchema } from './flows.ts';

/**
 * The autopilot's side of schedules (spec §4 Scheduled task, Execution loop; §7 schedule calls), with
 * `Authorization: Device <token>` like the rest of the device API. A machine's schedules (desktop
 * flows scheduled on it) are launched by that machine's autopilot, never by the server's runner:
 * - it pulls them into its task cache (list);
 * - before a slot runs it checks the schedule still exists and is still at that date (one);
 * - it launches the slot (launch): the server makes one run per slot, whoever asks and however often,
 *   and the machine's run loop executes it like any remote launch;
 * - it follows that run (slotRun) until it ends, then deletes a one-off schedule or moves a repeating
 *   one (advance/remove), each guarded by the date it ran, so a date the user moved it to stands.
 */
export const autopilotPaths = {
  /** GET -> { items: ScheduledFlow[] }: the schedules of this machine, soonest first. */
  schedules: '/api/device/schedules',
  /**
   * GET -> DeviceScheduleCheck: whether it still exists (and its current date).
   * PUT { from, to } -> ScheduledFlow: moves it to `to` only while it is still at `from` (409 otherwise).
   * DELETE ?from=<iso> -> 204: deletes it only while it is still at `from` (409 otherwise); 404 when gone.
   */
  schedule: '/api/device/schedules/:id',
  /**
   * POST { scheduledDate } -> SlotRun: the run of this slot, launched now if it has none. Idempotent:
   * asking again gives the same run. When that run ended as 299 (the device stopped, nothing charged),
   * asking again launches the slot anew. 409 SCHEDULE_MOVED when the schedule is no longer at that date,
   * 404 when it is gone; a refusal (402 no credits, 400 inputs no longer valid) is in the history and
   * that slot counts as run.
   */
  launch: '/api/device/schedules/:id/launch',
  /** GET -> SlotRun: how a slot's run is going (the autopilot follows it until it is finished). */
  slotRun: '/api/device/schedules/:id/runs/:runId',
} as const;

export const deviceScheduleParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la programación no es válido')) });
export const slotRunParamsSchema = z.object({
  id: deviceScheduleParamsSchema.shape.id,
  runId: z.string().check(z.uuid('El identificador de la ejecución no es válido')),
});

const isoDate = z.iso.datetime({ offset: true, error: 'La fecha no es válida' });

export const deviceScheduleCheckSchema = z.object({
  exists: z.boolean(),
  /** Null when it no longer exists. */
  schedule: z.nullable(scheduledFlowSchema),
});
export type DeviceScheduleCheck = z.infer<typeof deviceScheduleCheckSchema>;

export const slotLaunchRequestSchema = z.strictObject({ scheduledDate: isoDate });
export const scheduleAdvanceRequestSchema = z.strictObject({ from: isoDate, to: isoDate });
export const scheduleRemoveQuerySchema = z.object({ from: isoDate });

/** The flow-run status 299: the run was cut short by its device (or the server); nothing was charged. */
export const ABORTED_LAUNCH_STATUS = 299;

export const slotRunSchema = z.object({
  runId: z.string(),
  state: z.enum(['queued', 'running', 'finished']),
  /** Set once finished: 200 Success, 500 Fail, 400 WrongInput, 402 NotEnoughSlans, 299 interrupted. */
  launchStatus: z.nullable(z.number()),
  /** The run's result label once finished (Success, Fail, WrongInput, NotEnoughSlans, FlowAborted). */
  result: z.nullable(z.string()),
});
export type SlotRun = z.infer<typeof slotRunSchema>;

export const SCHEDULE_MOVED_MESSAGE = 'Esta programación ha cambiado de fecha: se lanzará en la nueva';
