import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SCHEDULE_FAILED_MESSAGE, type ScheduledFlow, type scheduleRequestSchema } from '#shared/api/flows.ts';
import { macroIdOfFlow } from '#shared/macros/to-flow.ts';
import { SCHEDULE_INTERVALS, type ScheduleInterval } from '#shared/schedule/index.ts';
import type { z } from 'zod/mini';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { SERVER_FLOW_MACHINE_MESSAGE } from '../devices/machine-runs.ts';
import { refuseServerInputs, type FlowDirectory } from '../flows/directory.ts';
import { machineNotFound, visibleMachines } from '../machines/access.ts';
import { checkInputs } from '../runs/inputs.ts';
import { findGroupUpload } from '../storage/service.ts';
import { isUsableEmailConfig } from '../mail/account-queries.ts';
/** Who creates a schedule: the signed-in user and the group that owns it. */
type Member = Pick<ActiveSession, 'userId' | 'groupId'>;

export type ScheduleRequest = z.output<typeof scheduleRequestSchema>;

export const MACHINE_REQUIRED_MESSAGE = 'Este robot necesita un dispositivo';
export const SCHEDULE_NOT_FOUND_MESSAGE = 'No se ha encontrado esta programación';
export const PAST_DATE_MESSAGE = 'Elige una fecha y hora futuras';
/** A date a little in the past is still taken (the minute the user picked may have just begun). */
const PAST_DATE_GRACE_MS = 5 * 60_000;
/** flowInputs are stored as JSON; a schedule is not the place for file contents. */
const MAX_FLOW_INPUTS_BYTES = 64 * 1024;

export function scheduleNotFound(): HttpError {
  return new HttpError(404, 'SCHEDULE_NOT_FOUND', SCHEDULE_NOT_FOUND_MESSAGE);
}

export function fieldError(path: string, message: string): HttpError {
  return new HttpError(400, 'VALIDATION', message, { issues: [{ path, message }] });
}

/** The group's schedules as the API shows them (ScheduledFlow), to be narrowed with more where clauses. */
export function scheduleRows(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('flow_schedules as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    // Today's catalogue name when the robot is still offered, else the name it was scheduled under.
    .leftJoin('flows as f', (join) => join.onRef('f.id', '=', 's.flow_id').on('f.active', '=', 1))
    // A desktop flow's machine, while it exists in the group.
    .leftJoin('machines as m', (join) => join.onRef('m.id', '=', 's.machine_id').onRef('m.group_id', '=', 's.group_id'))
    .select([
      's.id', 's.flow_id', 's.flow_name', 's.local_process', 's.scheduled_date', 's.repeat', 's.every', 's.interval',
      's.flow_inputs', 's.send_output_to_server', 's.updated_at', 'u.email', 'u.name as user_name', 'f.name as catalogue_name',
      'm.id as machine_id', 'm.saved_as as machine_name',
    ])
    .where('s.group_id', '=', groupId);
}

export type ScheduleRow = Awaited<ReturnType<ReturnType<typeof scheduleRows>['execute']>>[number];

export function toInterval(value: string): ScheduleInterval {
  return SCHEDULE_INTERVALS.find((interval) => interval === value) ?? 'days';
}

export function parseInputs(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Where a schedule's flow definitions come from: the built-in catalogue and the firm's macros (FlowDirectory). */
export type ScheduleCatalogue = Pick<FlowDirectory, 'flowFor'>;

/**
 * A schedule's inputs checked when it is saved exactly as a launch checks them (runs/inputs.ts), so a
 * schedule never holds what its launch would refuse: required and format rules, choices, and for file
 * inputs uploads of the caller's own group only (another firm's upload id is as missing as a deleted
 * one). A 400 with every bad field's path under `flowInputs`; nothing is written. A flow no longer in
 * the catalogue is not checked (its schedule cannot run anyway).
 */
export async function checkScheduleInputs(
  db: Kysely<Database>,
  catalogue: ScheduleCatalogue,
  groupId: string,
  flowId: string,
  flowInputs: Readonly<Record<string, unknown>>,
): Promise<void> {
  // The inputs a launch gets from the server (a macro's definition) are never a schedule's.
  refuseServerInputs(flowInputs, 'flowInputs');
  const definition = (await catalogue.flowFor(groupId, flowId, null))?.definition;
  if (!definition) return;
  await checkInputs(definition, flowInputs, (id) => findGroupUpload(db, groupId, id), (configId) => isUsableEmailConfig(db, groupId, configId)).catch((error: unknown) => {
    if (!(error instanceof HttpError) || error.extra.issues === undefined) throw error;
    // checkInputs names a launch's fields (inputs.<key>); a schedule sends them as flowInputs.<key>.
    const issues = error.extra.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^inputs(?=\.|$)/, 'flowInputs') }));
    throw new HttpError(error.statusCode, error.code, error.message, { ...error.extra, issues });
  });
}

/** Spec §3 Scheduled flow (server record); a desktop flow's names the machine that runs it. */
export function toScheduledFlow(row: ScheduleRow): ScheduledFlow {
  return {
    _id: row.id,
    browserFlowName: row.catalogue_name ?? row.flow_name,
    browserFlow: row.flow_id,
    localProcess: row.local_process,
    scheduledDate: row.scheduled_date,
    repeat: Number(row.repeat) === 1,
    every: Number(row.every),
    interval: toInterval(row.interval),
    user: { email: row.email, name: row.user_name },
    machine: row.machine_id === null || row.machine_name === null ? null : { _id: row.machine_id, name: row.machine_name },
    flowInputs: parseInputs(row.flow_inputs),
    sendOutputToServer: Number(row.send_output_to_server) === 1,
    updatedAt: row.updated_at,
  };
}

/** The ISO date as stored (UTC, so dates sort as text), refusing one already past (a 400 on `path`). */
export function futureDate(scheduledDate: string, now: Date, path = 'scheduledDate'): string {
  const date = new Date(scheduledDate);
  if (date.getTime() < now.getTime() - PAST_DATE_GRACE_MS) throw fieldError(path, PAST_DATE_MESSAGE);
  return date.toISOString();
}

/**
 * A new schedule of an offered flow. A server flow is run by the server at its time; a desktop flow
 * needs the machine that runs it (one the member sees), and is then launched on it remotely.
 */
export async function createSchedule(
  db: Kysely<Database>,
  catalogue: ScheduleCatalogue,
  member: Member,
  flowId: string,
  request: ScheduleRequest,
  now: Date,
): Promise<ScheduledFlow> {
  const flow = await db.selectFrom('flows').select(['id', 'name', 'runs_on']).where('id', '=', flowId).where('active', '=', 1).executeTakeFirst();
  // A firm's macro is in table flows for every firm: only its own firm's members who may see it schedule it.
  const offered = await catalogue.flowFor(member.groupId, flowId, member.userId);
  if (!flow || (offered === undefined && macroIdOfFlow(flowId) !== null)) throw new HttpError(404, 'FLOW_NOT_FOUND', SCHEDULE_FAILED_MESSAGE);
  const machineId = await scheduleMachine(db, member, flow.runs_on, request.machine);
  const flowInputs = JSON.stringify(request.flowInputs);
  if (new TextEncoder().encode(flowInputs).length > MAX_FLOW_INPUTS_BYTES) throw fieldError('flowInputs', 'Las entradas del robot ocupan demasiado');
  const scheduledDate = futureDate(request.scheduledDate, now);
  await checkScheduleInputs(db, catalogue, member.groupId, flow.id, request.flowInputs);

  const id = randomUUID();
  await db
    .insertInto('flow_schedules')
    .values({
      id,
      group_id: member.groupId,
      user_id: member.userId,
      flow_id: flow.id,
      flow_name: flow.name,
      scheduled_date: scheduledDate,
      repeat: request.repeat ? 1 : 0,
      every: request.every,
      interval: request.interval,
      flow_inputs: flowInputs,
      send_output_to_server: request.sendOutputToServer ? 1 : 0,
      machine_id: machineId,
      local_machine_hash: request.localMachineHashCode ?? null,
      // A flow that stands for a local process (the FIE fetch and A3 sync) always runs it, whatever was asked.
      local_process: offered?.definition.localProcess ?? request.localProcess ?? null,
      claimed_by: null,
      claimed_until: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return findSchedule(db, member.groupId, id);
}

/** The machine a desktop flow's schedule launches on; none for a server flow. */
async function scheduleMachine(db: Kysely<Database>, member: Member, runsOn: string, machine: string | undefined): Promise<string | null> {
  if (runsOn === 'server') {
    if (machine !== undefined) throw fieldError('machine', SERVER_FLOW_MACHINE_MESSAGE);
    return null;
  }
  if (machine === undefined) throw new HttpError(400, 'MACHINE_REQUIRED', MACHINE_REQUIRED_MESSAGE, { issues: [{ path: 'machine', message: MACHINE_REQUIRED_MESSAGE }] });
  const row = await visibleMachines(db, member).where('m.id', '=', machine).executeTakeFirst();
  if (!row) throw machineNotFound();
  return row.id;
}

/**
 * The group's schedules, soonest first; `user` keeps one member's (by email), `machineHash` those of
 * the group's machine with that hash (spec §7 getSchedule, embedded: what that PC's autopilot runs).
 * Both together: the member's schedules on that machine.
 */
export async function listSchedules(db: Kysely<Database>, groupId: string, filter: { user?: string; machineHash?: string }): Promise<ScheduledFlow[]> {
  let query = scheduleRows(db, groupId);
  if (filter.user !== undefined) query = query.where('u.email', '=', filter.user.trim().toLowerCase());
  if (filter.machineHash !== undefined) query = query.where('m.machine_hash', '=', filter.machineHash);
  const rows = await query.orderBy('s.scheduled_date').orderBy('s.id').execute();
  return rows.map(toScheduledFlow);
}

/** One of the group's schedules; another group's is a 404 like a missing one. */
export async function findSchedule(db: Kysely<Database>, groupId: string, id: string): Promise<ScheduledFlow> {
  const row = await scheduleRows(db, groupId).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw scheduleNotFound();
  return toScheduledFlow(row);
}

export async function scheduleExists(db: Kysely<Database>, groupId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('flow_schedules').select('id').where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves a schedule (the launcher's 'Programar tarea' again, or the autopilot after a run). A runner
 * holding it keeps its claim, and on finishing sees the date moved and leaves the new one alone. Its
 * inputs are checked again as on creation (checkScheduleInputs): a schedule saved before that check
 * existed may hold another firm's upload, and is not saved again with it.
 */
export async function moveSchedule(
  db: Kysely<Database>,
  catalogue: ScheduleCatalogue,
  groupId: string,
  id: string,
  scheduledDate: string,
  now: Date,
): Promise<ScheduledFlow> {
  const date = futureDate(scheduledDate, now);
  const current = await db.selectFrom('flow_schedules').select(['flow_id', 'flow_inputs']).where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  if (!current) throw scheduleNotFound();
  await checkScheduleInputs(db, catalogue, groupId, current.flow_id, parseInputs(current.flow_inputs));
  const result = await db
    .updateTable('flow_schedules')
    .set({ scheduled_date: date, updated_at: now.toISOString() })
    .where('group_id', '=', groupId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw scheduleNotFound();
  return findSchedule(db, groupId, id);
}

export async function deleteSchedule(db: Kysely<Database>, groupId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('flow_schedules').where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw scheduleNotFound();
}
