import { z } from 'zod/mini';
import { logLineSchema } from './flows.ts';

/**
 * Devices: how a PC's desktop app or agent talks to the server on its own, without a signed-in window
 * (spec §6 shared machines; ARCHITECTURE 'Remote launches'). A signed-in user links the PC once and
 * the desktop keeps the device token it gets (encrypted at rest). With it the desktop receives the runs
 * queued for its machine (a long poll), leases each one, reports log lines and progress while the
 * lease is renewed, and closes it with its outcome. A lease that runs out closes the run once as
 * 'Robot interrumpido' (299); a run is never leased twice.
 */
export const devicesPaths = {
  /** Signed in. POST { machineHashCode, machineName } -> DeviceLink: registers this PC for the caller if new, and issues a new token (earlier ones stop working). */
  link: '/api/machines/link',
  /** Signed in, the machine's owner. DELETE: the machine's device token stops working at once (204). */
  deviceToken: '/api/machines/:id/device-token',

  // With `Authorization: Device <token>` only (no cookies).
  /** GET -> DeviceIdentity: which machine and user this token is for (401 once revoked). */
  me: '/api/device/me',
  /** GET ?wait=0..25 -> 200 { run: LeasedRun } or 204 after `wait` seconds with nothing queued for this machine. */
  nextRun: '/api/device/runs/next',
  /** POST { executionToken } -> 200 { run: LeasedRun }: leases one run of this machine now (LaunchFlow). 409 when already leased or finished. */
  claimRun: '/api/device/runs/claim',
  /** POST DeviceRunReport -> DeviceRunReportAnswer: new log lines and progress; renews the lease. 409 once the lease is lost. */
  report: '/api/device/runs/:runId/report',
  /** POST DeviceRunOutcome -> { closed }: ends the run (once). 409 when it was already closed (lease lost, stopped elsewhere). */
  finish: '/api/device/runs/:runId/finish',
  /**
   * GET -> the bytes of one upload of a FileUpload input of a run this machine holds (content-type,
   * content-length), fetched before its robot starts. 404 for another machine's run, a run not leased
   * yet, or an upload its inputs do not name; 409 once the lease is lost.
   */
  runFile: '/api/device/runs/:runId/files/:uploadId',
} as const;

export const DEVICE_AUTH_SCHEME = 'Device';
export const DEVICE_TOKEN_INVALID_MESSAGE = 'Este dispositivo ya no está conectado a tu cuenta: vuelve a conectarlo desde la aplicación';
export const MACHINE_REQUIRED_MESSAGE = 'Este robot necesita un dispositivo';
export const MACHINE_OFFLINE_MESSAGE = 'El dispositivo no está conectado: el robot empezará en cuanto se conecte';
export const LEASE_LOST_MESSAGE = 'El dispositivo dejó de responder durante la ejecución. No se ha cobrado.';
export const DEVICE_STOPPED_MESSAGE = 'El dispositivo se ha detenido durante la ejecución. No se ha cobrado.';
/** A desktop that has not called for this long is shown as offline (its long poll lasts 25 s). */
export const DEVICE_ONLINE_WINDOW_MS = 45_000;
/**
 * Largest JSON body a device may send when it finishes, and the `outcome` field of a multipart finish
 * (issue 39, 2: no big JSON body is parsed on the server's thread). Output files sent to the server
 * travel as multipart files (field `outputs`, in the order of the outcome's `outputs`, whose base64 is
 * then empty), DEVICE_FINISH_OUTPUTS_MAX_BYTES in all.
 */
export const DEVICE_FINISH_BODY_LIMIT = 512 * 1024;
export const DEVICE_FINISH_OUTPUTS_MAX_BYTES = 24 * 1024 * 1024;

const machineHash = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'El identificador del dispositivo no es válido'));

export const deviceLinkRequestSchema = z.strictObject({
  machineHashCode: machineHash,
  machineName: z.string().check(z.trim(), z.minLength(1, 'Pon un nombre a este dispositivo'), z.maxLength(100)),
});
export type DeviceLinkRequest = z.infer<typeof deviceLinkRequestSchema>;

export const deviceLinkSchema = z.object({
  machine: z.object({ _id: z.string(), name: z.string() }),
  /** Shown once: the desktop stores it encrypted; the server keeps only its hash. */
  deviceToken: z.string(),
});
export type DeviceLink = z.infer<typeof deviceLinkSchema>;

export const deviceIdentitySchema = z.object({
  machine: z.object({ _id: z.string(), name: z.string() }),
  user: z.object({ email: z.string(), name: z.string() }),
});
export type DeviceIdentity = z.infer<typeof deviceIdentitySchema>;

/** A run this machine now holds: everything the robot needs, and how long the lease lasts unrenewed. */
export const leasedRunSchema = z.object({
  runId: z.string(),
  executionToken: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  /** The inputs as checked at launch (a Certificate input holds the certificate's fingerprint). */
  inputs: z.record(z.string(), z.unknown()),
  timeLimitSeconds: z.number(),
  /** Launched from the web or a schedule for this machine (true), or from this PC's own window (false). */
  remote: z.boolean(),
  /** Send the output files to the server (remote launches); otherwise they stay in the run's folder here. */
  sendOutputToServer: z.boolean(),
  /** Report at least this often or the lease runs out. */
  leaseMs: z.number(),
  /**
   * The keys of the flow's FileUpload inputs: each holds a FileInputValue in `inputs`, whose files the
   * device downloads (runFile) and gives the robot as bytes. Additive: absent from older servers.
   */
  fileInputs: z._default(z.array(z.string()), []),
  /**
   * The schedule's local process (ScheduledFlow.localProcess: 'get-fie-siltra', 'sync-fie-a3', ...): the
   * desktop runs that process instead of the flow's robot. Additive: absent for every other run.
   */
  localProcess: z.optional(z.nullable(z.string())),
  startedAt: z.string(),
});
export type LeasedRun = z.infer<typeof leasedRunSchema>;
export const leasedRunResponseSchema = z.object({ run: leasedRunSchema });

export const nextRunQuerySchema = z.object({
  wait: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(25)), 25),
});
export const claimRunRequestSchema = z.strictObject({ executionToken: z.string().check(z.minLength(1), z.maxLength(64)) });
export const deviceRunParamsSchema = z.object({ runId: z.string().check(z.uuid('El identificador de la ejecución no es válido')) });
export const deviceRunFileParamsSchema = z.object({
  runId: deviceRunParamsSchema.shape.runId,
  uploadId: z.string().check(z.uuid('El identificador del archivo no es válido')),
});
export const RUN_FILE_NOT_FOUND_MESSAGE = 'No se ha encontrado este archivo de la ejecución';

export const deviceRunReportSchema = z.strictObject({
  /** Lines since the last report, oldest first. */
  lines: z.array(z.strictObject({ level: logLineSchema.shape.level, text: z.string().check(z.maxLength(2000)) })).check(z.maxLength(500)),
  successfulIterations: z.int().check(z.nonnegative()),
  totalIterations: z.int().check(z.nonnegative()),
});
export type DeviceRunReport = z.infer<typeof deviceRunReportSchema>;
export const deviceRunReportAnswerSchema = z.object({
  /** The user pressed stop: end the robot and finish with { kind: 'stopped', by: 'user' }. */
  stop: z.boolean(),
  leaseUntil: z.string(),
});
export type DeviceRunReportAnswer = z.infer<typeof deviceRunReportAnswerSchema>;

const summaryValue = z.union([z.string(), z.number(), z.boolean()]);
/** More than any run can use (a million-row payroll is 10,000 units): a report past it is refused. */
export const MAX_REPORTED_UNITS = 1_000_000;

const outputName = z.string().check(z.minLength(1), z.maxLength(255));

/**
 * How a run ended on the device (the same cases as a server worker's outcome). Output files stay in
 * `outputFolder` on the PC; with sendOutputToServer they also travel here, base64, to be downloaded.
 */
export const deviceRunOutcomeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('result'),
    result: z.enum(['Success', 'Fail', 'WrongInput']),
    // Whole units as a robot counts them; the server charges at most what the launch reserved anyway.
    usageUnits: z.number().check(z.gte(0), z.lte(MAX_REPORTED_UNITS)),
    message: z.optional(z.string().check(z.maxLength(2000))),
    summary: z.optional(z.record(z.string(), summaryValue)),
    outputFolder: z.nullable(z.string().check(z.maxLength(1000))),
    outputFileNames: z.array(outputName).check(z.maxLength(1000)),
    outputs: z._default(z.array(z.strictObject({ name: outputName, base64: z.string() })).check(z.maxLength(1000)), []),
  }),
  z.strictObject({ kind: z.literal('failed'), message: z.string().check(z.maxLength(2000)) }),
  z.strictObject({ kind: z.literal('crashed'), message: z.string().check(z.maxLength(2000)) }),
  z.strictObject({ kind: z.literal('timeout') }),
  /** by 'user': the stop the report answered; by 'device': the app or agent was closed mid-run. */
  z.strictObject({ kind: z.literal('stopped'), by: z.enum(['user', 'device']) }),
]);
export type DeviceRunOutcome = z.input<typeof deviceRunOutcomeSchema>;
export const deviceFinishAnswerSchema = z.object({ closed: z.boolean() });
