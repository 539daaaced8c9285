import type { z } from 'zod/mini';
import type { DeviceScheduleCheck, SlotRun } from '#shared/api/autopilot.ts';
import { autopilotPaths, deviceScheduleCheckSchema, SCHEDULE_MOVED_MESSAGE, slotRunSchema } from '#shared/api/autopilot.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import { scheduledFlowSchema, schedulesResponseSchema } from '#shared/api/flows.ts';
import type { DeviceIdentity, DeviceRunOutcome, DeviceRunReport, DeviceRunReportAnswer, LeasedRun } from '#shared/api/devices.ts';
import {
  DEVICE_AUTH_SCHEME,
  DEVICE_TOKEN_INVALID_MESSAGE,
  deviceFinishAnswerSchema,
  deviceIdentitySchema,
  deviceRunReportAnswerSchema,
  devicesPaths,
  leasedRunResponseSchema,
} from '#shared/api/devices.ts';
import { DeviceError, unreachableMessage } from './errors.ts';

/** The device API (shared/api/devices.ts) as this PC uses it, with its device token. */
export interface DeviceServerClient {
  readonly serverUrl: string;
  me(): Promise<DeviceIdentity>;
  /** Waits up to `waitSeconds` for a run queued for this machine; null when none came. */
  nextRun(waitSeconds: number, signal?: AbortSignal): Promise<LeasedRun | null>;
  claimRun(executionToken: string): Promise<LeasedRun>;
  report(runId: string, report: DeviceRunReport): Promise<DeviceRunReportAnswer>;
  finish(runId: string, outcome: DeviceRunOutcome): Promise<{ closed: boolean }>;
  /** The bytes of one upload of a FileUpload input of a run this PC holds, all of them (checked against content-length). */
  runFile(runId: string, uploadId: string, signal?: AbortSignal): Promise<Uint8Array>;

  // The autopilot's schedule calls (shared/api/autopilot.ts). A schedule that is gone is 'not-found';
  // one no longer at the date given is a 'conflict' (SCHEDULE_MOVED_MESSAGE).
  /** This machine's schedules, soonest first. */
  schedules(): Promise<ScheduledFlow[]>;
  /** Whether a schedule still exists, and its current date. */
  checkSchedule(scheduleId: string): Promise<DeviceScheduleCheck>;
  /** The run of the slot at `scheduledDate` (ISO), launched now if it has none: asking again gives the same run. */
  launchSlot(scheduleId: string, scheduledDate: string): Promise<SlotRun>;
  slotRun(scheduleId: string, runId: string): Promise<SlotRun>;
  /** Moves a repeating schedule to `to`, only while it is still at `from`. */
  advanceSchedule(scheduleId: string, from: string, to: string): Promise<ScheduledFlow>;
  /** Deletes a schedule, only while it is still at `from`. */
  removeSchedule(scheduleId: string, from: string): Promise<void>;
}

export interface DeviceServerClientOptions {
  serverUrl: string;
  deviceToken: string;
  fetch: typeof fetch;
  /** A call that takes longer than this (beyond a long poll's wait) counts as the server being unreachable. */
  requestTimeoutMs?: number;
}

/**
 * A finish as the server takes it (issue 39, 2): without output files, JSON; with them, multipart: the
 * outcome in the field `outcome` (each output's name, its base64 left empty), then each file's bytes, in
 * the same order, in `outputs`, streamed
 * off the JSON parser (base64 in a JSON body made the server parse tens of MB on its only thread).
 */
export function finishBody(outcome: DeviceRunOutcome): DeviceRunOutcome | FormData {
  if (outcome.kind !== 'result' || !outcome.outputs || outcome.outputs.length === 0) return outcome;
  const form = new FormData();
  form.append('outcome', JSON.stringify({ ...outcome, outputs: outcome.outputs.map((file) => ({ name: file.name, base64: '' })) }));
  for (const file of outcome.outputs) form.append('outputs', new Blob([new Uint8Array(Buffer.from(file.base64, 'base64'))]), 'output');
  return form;
}

/**
 * Every answer is parsed with the shared schema, and every failure becomes a DeviceError: 401 ->
 * token-refused (with DEVICE_TOKEN_INVALID_MESSAGE), 409 -> conflict (the server's message), no answer
 * or a 5xx -> unreachable, anything else -> server.
 */
export function deviceServerClient(options: DeviceServerClientOptions): DeviceServerClient {
  const { serverUrl, deviceToken } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;

  type RequestInit = {
    body?: unknown;
    signal?: AbortSignal;
    extraTimeoutMs?: number;
    /** The schedule calls: 404 means the schedule (or its run) is gone, and 409 that it moved. */
    schedule?: boolean;
  };
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

  /** One request with the device token; no answer at all (or too late) is 'unreachable'. */
  async function request(method: Method, path: string, init: RequestInit): Promise<Response> {
    const timeout = AbortSignal.timeout(requestTimeoutMs + (init.extraTimeoutMs ?? 0));
    try {
      return await options.fetch(new URL(path, serverUrl), {
        method,
        headers: {
          authorization: `${DEVICE_AUTH_SCHEME} ${deviceToken}`,
          ...(init.body === undefined || init.body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : init.body instanceof FormData ? init.body : JSON.stringify(init.body),
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    } catch (error) {
      // The caller's own abort (unlink, shutdown) is not a network problem: let it through as it is.
      if (init.signal?.aborted) throw error;
      throw new DeviceError('unreachable', unreachableMessage(serverUrl));
    }
  }

  async function call<S extends z.ZodMiniType>(method: Method, path: string, schema: S, init: RequestInit = {}): Promise<z.infer<S> | null> {
    const response = await request(method, path, init);
    if (response.status === 204) return null;
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw init.schedule ? scheduleFailureFor(response.status, body, serverUrl) : failureFor(response.status, body, serverUrl);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new DeviceError('server', `El servidor ${serverUrl} ha respondido algo inesperado: ¿es un servidor de AutoAsesor actualizado?`);
    return parsed.data as z.infer<S>;
  }

  /** A file's bytes, all of them: a body shorter than its content-length (a cut connection) is refused. */
  async function download(path: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    // A file may be large: give it time beyond a JSON call's.
    const response = await request('GET', path, { signal, extraTimeoutMs: 120_000 });
    if (!response.ok) throw failureFor(response.status, await response.json().catch(() => undefined), serverUrl);
    const expected = Number(response.headers.get('content-length') ?? Number.NaN);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DeviceError('unreachable', Number.isFinite(expected) ? `La conexión se ha cortado antes de recibir el archivo entero (${expected} bytes).` : unreachableMessage(serverUrl));
    }
    if (!Number.isInteger(expected)) throw new DeviceError('server', `El servidor ${serverUrl} no ha dicho el tamaño del archivo.`);
    if (bytes.byteLength !== expected) throw new DeviceError('unreachable', incompleteMessage(bytes.byteLength, expected));
    return bytes;
  }

  const runPath = (template: string, runId: string) => template.replace(':runId', encodeURIComponent(runId));
  const schedulePath = (template: string, scheduleId: string, runId = '') =>
    template.replace(':id', encodeURIComponent(scheduleId)).replace(':runId', encodeURIComponent(runId));
  const onSchedule = { schedule: true } as const;
  const required = <T>(value: T | null): T => {
    if (value === null) throw new DeviceError('server', `El servidor ${serverUrl} no ha respondido nada.`);
    return value;
  };

  return {
    serverUrl,
    me: async () => required(await call('GET', devicesPaths.me, deviceIdentitySchema)),
    nextRun: async (waitSeconds, signal) => {
      const answer = await call('GET', `${devicesPaths.nextRun}?wait=${waitSeconds}`, leasedRunResponseSchema, { signal, extraTimeoutMs: waitSeconds * 1000 });
      return answer?.run ?? null;
    },
    claimRun: async (executionToken) => required(await call('POST', devicesPaths.claimRun, leasedRunResponseSchema, { body: { executionToken } })).run,
    report: async (runId, report) => required(await call('POST', runPath(devicesPaths.report, runId), deviceRunReportAnswerSchema, { body: report })),
    // A finish carries the outputs sent to the server: give it time to upload them.
    finish: async (runId, outcome) =>
      required(await call('POST', runPath(devicesPaths.finish, runId), deviceFinishAnswerSchema, { body: finishBody(outcome), extraTimeoutMs: 120_000 })),
    runFile: (runId, uploadId, signal) => download(runPath(devicesPaths.runFile, runId).replace(':uploadId', encodeURIComponent(uploadId)), signal),
    schedules: async () => required(await call('GET', autopilotPaths.schedules, schedulesResponseSchema, onSchedule)).items,
    checkSchedule: async (scheduleId) => required(await call('GET', schedulePath(autopilotPaths.schedule, scheduleId), deviceScheduleCheckSchema, onSchedule)),
    launchSlot: async (scheduleId, scheduledDate) =>
      required(await call('POST', schedulePath(autopilotPaths.launch, scheduleId), slotRunSchema, { ...onSchedule, body: { scheduledDate } })),
    slotRun: async (scheduleId, runId) => required(await call('GET', schedulePath(autopilotPaths.slotRun, scheduleId, runId), slotRunSchema, onSchedule)),
    advanceSchedule: async (scheduleId, from, to) =>
      required(await call('PUT', schedulePath(autopilotPaths.schedule, scheduleId), scheduledFlowSchema, { ...onSchedule, body: { from, to } })),
    removeSchedule: async (scheduleId, from) => {
      const response = await request('DELETE', `${schedulePath(autopilotPaths.schedule, scheduleId)}?from=${encodeURIComponent(from)}`, onSchedule);
      if (!response.ok) throw scheduleFailureFor(response.status, await response.json().catch(() => undefined), serverUrl);
      await response.body?.cancel();
    },
  };
}

function incompleteMessage(received: number, expected: number): string {
  return `El archivo ha llegado incompleto (${received} de ${expected} bytes).`;
}

/** As failureFor, for the schedule calls: 404 -> not-found (the schedule is gone), 409 -> conflict (it moved). */
/**
 * On the schedule calls: 404 SCHEDULE_NOT_FOUND (or any 404 without a body) is a schedule gone, 409 one
 * moved, 429 the firm's queue full for now (tried again, as an unreachable server); any other 4xx (the launch refused: inputs no longer valid, the robot no longer offered, the
 * machine no longer the owner's) is 'refused', with the server's reason.
 */
function scheduleFailureFor(status: number, body: unknown, serverUrl: string): DeviceError {
  const error = apiErrorSchema.safeParse(body).data;
  if (status === 404 && (error === undefined || error.code === 'SCHEDULE_NOT_FOUND' || error.code === 'RUN_NOT_FOUND')) {
    return new DeviceError('not-found', error?.message ?? 'Esta programación ya no existe.');
  }
  if (status === 409) return new DeviceError('conflict', error?.message ?? SCHEDULE_MOVED_MESSAGE);
  // The firm's queue is full for now: the slot is tried again later, as when the server is away.
  if (status === 429) return new DeviceError('unreachable', error?.message ?? `El servidor ${serverUrl} tiene demasiados robots en cola ahora. Se vuelve a intentar en unos segundos.`);
  if (status >= 400 && status < 500 && status !== 401 && error !== undefined) return new DeviceError('refused', error.message);
  return failureFor(status, body, serverUrl);
}

function failureFor(status: number, body: unknown, serverUrl: string): DeviceError {
  const message = apiErrorSchema.safeParse(body).data?.message;
  if (status === 401) return new DeviceError('token-refused', message ?? DEVICE_TOKEN_INVALID_MESSAGE);
  if (status === 409) return new DeviceError('conflict', message ?? 'Esta ejecución ya no está en manos de este dispositivo.');
  if (status >= 500) return new DeviceError('unreachable', `El servidor ${serverUrl} no está disponible ahora (${status}). Se vuelve a intentar en unos segundos.`);
  return new DeviceError('server', message ?? `El servidor ${serverUrl} ha rechazado la petición (${status}).`);
}
