import { z } from 'zod/mini';
import { FLOW_RUNTIMES, flowDefinitionSchema } from '../flows/definition.ts';
import { SCHEDULE_INTERVALS } from '../schedule/next-run.ts';

/**
 * The flows HTTP contract (spec §7 Flows): catalogue, uploads, executions, run history (flowlog) and
 * schedules. Every path is under /api; every id is the server's UUID except flow ids (folder names).
 */
export const flowsPaths = {
  catalogue: '/api/browserflow/flow',
  flow: '/api/browserflow/flow/:id',
  template: '/api/browserflow/flow/template/:id',
  /** multipart/form-data, one or more 'file' parts. */
  uploads: '/api/storage/uploads',
  /** The columns and row count of an uploaded workbook's first sheet (ColumnMapping, cost estimate). */
  uploadColumns: '/api/storage/uploads/:id/columns',
  execution: '/api/browserflow/execution/:flowId',
  executionState: '/api/browserflow/execution/state/:token',
  executionStop: '/api/browserflow/execution/state/:token/stop',
  flowlog: '/api/flowlog',
  flowlogStats: '/api/flowlog/stats',
  flowlogReport: '/api/flowlog/report',
  flowlogOne: '/api/flowlog/:id',
  outputFile: '/api/flowlog/:id/outputs/:name',
  schedules: '/api/browserflow/schedule',
  scheduleCreate: '/api/browserflow/schedule/:flowId',
  schedule: '/api/browserflow/schedule/:id',
} as const;

/** Fills ':name' segments: pathFor(flowsPaths.flow, { id: 'x' }) -> '/api/browserflow/flow/x'. */
export function pathFor(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

// ---------------------------------------------------------------------------------------------------
// Catalogue

export const flowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  group: z.string(),
  limits: z.optional(z.string()),
  usageRatio: z.number(),
  usageMeasureUnit: z.string(),
  runsOn: z.enum(FLOW_RUNTIMES),
  hasTemplate: z.boolean(),
  hasInstructions: z.boolean(),
});
export type FlowSummary = z.infer<typeof flowSummarySchema>;

export const catalogueResponseSchema = z.object({ items: z.array(flowSummarySchema) });
export type CatalogueResponse = z.infer<typeof catalogueResponseSchema>;

/** GET flow/{id}: the whole definition (the server never sends robot code). */
export const flowResponseSchema = flowDefinitionSchema;

export const flowIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

// ---------------------------------------------------------------------------------------------------
// Uploads

export const uploadedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;
export const uploadResponseSchema = z.object({ items: z.array(uploadedFileSchema) });

export const uploadColumnsResponseSchema = z.object({
  sheet: z.string(),
  columns: z.array(z.string()),
  /** Data rows under the header row. */
  rowCount: z.number(),
});
export type UploadColumns = z.infer<typeof uploadColumnsResponseSchema>;

/** The value a FileUpload input carries in an execution request: the uploads, by id. */
export const fileInputValueSchema = z.array(z.object({ uploadId: z.string().check(z.uuid()), name: z.string() }));
export type FileInputValue = z.infer<typeof fileInputValueSchema>;

/** The value a ColumnMapping input carries: mapped column key -> header of the chosen column (or null). */
export const columnMappingValueSchema = z.record(z.string(), z.nullable(z.string()));

// ---------------------------------------------------------------------------------------------------
// Executions (spec §3 Execution request, Output)

export const executionRequestSchema = z.object({
  /** The section ref that launched. */
  step: z.optional(z.string().check(z.maxLength(64))),
  /** A previous run's executionToken (a flow that continues a run); unused by the built-in flows. */
  token: z.optional(z.string().check(z.maxLength(64))),
  /** Script execution arguments must be an object (spec §5). */
  arguments: z.optional(z.record(z.string(), z.unknown())),
  /** Input key -> value; FileUpload inputs hold FileInputValue, ColumnMapping a column mapping. */
  inputs: z.record(z.string(), z.unknown()),
  /** Answer the Output's data as JSON (always true for the web app). */
  json: z.optional(z.boolean()),
  /** The same key sent twice starts one run and charges it once (a retried request). */
  idempotencyKey: z.string().check(z.minLength(8), z.maxLength(64)),
  /** After a 402 prompt 'Continuar': run on paid extra usage (refused on a trial). */
  acceptExtraUsage: z.optional(z.boolean()),
  /**
   * A desktop flow: the machine (the caller's or one shared with the firm) that runs it. Required for
   * desktop flows (400 'Este robot necesita un dispositivo'), refused for server flows.
   */
  machineId: z.optional(z.string().check(z.uuid('El identificador del dispositivo no es válido'))),
  /**
   * The desktop app launches on its own machine (then LaunchFlow leases the run at once and the files
   * stay in its folder). Absent or false: a remote launch ('Lanzamiento remoto'), whose files go to the server.
   */
  localLaunch: z.optional(z.boolean()),
});
export type ExecutionRequest = z.infer<typeof executionRequestSchema>;

export const outputFileSchema = z.object({ name: z.string(), size: z.number() });
export type OutputFile = z.infer<typeof outputFileSchema>;

/**
 * The launcher's status codes (spec §4): 200 done, 242 the robot ended with a result error
 * (WrongInput), 400 inputs refused, 402 not enough credits, 500 robot failed or crashed, 504 time limit.
 */
export const LAUNCH_STATUSES = [200, 242, 400, 401, 402, 500, 504] as const;

export const outputDataSchema = z.object({
  runId: z.string(),
  files: z.array(outputFileSchema),
  summary: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
  message: z.optional(z.string()),
  usageUnits: z.number(),
  usageRatio: z.number(),
  cost: z.number(),
  /** Desktop runs: the folder on the machine that holds the run's files, and their names there. */
  outputFolder: z.optional(z.nullable(z.string())),
  outputFileNames: z.optional(z.array(z.string())),
});
export type OutputData = z.infer<typeof outputDataSchema>;

export const outputSchema = z.object({
  data: outputDataSchema,
  status: z.number(),
  executionToken: z.string(),
  consoleLog: z.array(z.string()),
});
export type Output = z.infer<typeof outputSchema>;

export const EXECUTION_STATES = ['queued', 'running', 'finished'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

/** POST execution answers 202 with this; GET state answers it until `output` is set. */
export const executionStateSchema = z.object({
  executionToken: z.string(),
  runId: z.string(),
  state: z.enum(EXECUTION_STATES),
  successfulIterations: z.number(),
  totalIterations: z.number(),
  consoleLog: z.array(z.string()),
  output: z.optional(outputSchema),
  /** Desktop runs: the machine that runs it, and whether it is connected now (a queued run waits for it). */
  machine: z.optional(z.object({ _id: z.string(), name: z.string(), online: z.boolean() })),
});
export type ExecutionStateResponse = z.infer<typeof executionStateSchema>;

/**
 * Console lines one state answer carries at most: `consoleLog` holds the first lines after `since`
 * (the caller asks again from where it got to), and a finished run's Output the run's last lines.
 */
export const CONSOLE_LOG_MAX_LINES = 500;

/** GET state may wait up to `wait` seconds for a change (long poll). */
export const executionStateQuerySchema = z.object({
  wait: z.optional(z.coerce.number().check(z.int(), z.gte(0), z.lte(25))),
  /** Lines of consoleLog the caller already has. */
  since: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
});

/** A 402 (code NOT_ENOUGH_CREDITS) carries what the prompt shows in the ApiError's `details`. */
export const notEnoughCreditsSchema = z.object({
  balance: z.number(),
  estimatedCost: z.number(),
  /** 'Continuar' is offered: a paid plan that bills extra usage. */
  canContinue: z.boolean(),
  /** € per slan of that extra usage (the plan's price), said in the prompt; null when it cannot continue. */
  extraSlanPrice: z.optional(z.nullable(z.number())),
});
export type NotEnoughCredits = z.infer<typeof notEnoughCreditsSchema>;

// ---------------------------------------------------------------------------------------------------
// Run history (spec §3 Flow log; §7 flowlog)

export const logLineSchema = z.object({
  level: z.enum(['info', 'warn', 'error']),
  timestamp: z.string(),
  text: z.string(),
});
export type LogLine = z.infer<typeof logLineSchema>;

export const flowLogSchema = z.object({
  _id: z.string(),
  browserFlow: z.object({ _id: z.string(), name: z.nullable(z.string()) }),
  /** Success | Fail | WrongInput | NotEnoughSlans | FlowAborted; null while running. */
  result: z.nullable(z.string()),
  state: z.enum(EXECUTION_STATES),
  stoppedByUser: z.boolean(),
  createAt: z.string(),
  finishedAt: z.nullable(z.string()),
  scheduled: z.boolean(),
  browserFlowSchedule: z.nullable(z.object({ _id: z.string(), machine: z.nullable(z.object({ name: z.string() })) })),
  successfulIterations: z.number(),
  totalIterations: z.number(),
  usageHistory: z.array(z.object({ usageUnits: z.number(), usageRatio: z.number() })),
  outputFileNames: z.array(z.string()),
  outputFolder: z.nullable(z.string()),
  user: z.object({ email: z.string(), name: z.string() }),
  /** The machine a desktop flow ran on (null for server flows). */
  machine: z.nullable(z.object({ _id: z.nullable(z.string()), name: z.string() })),
  /** Launched for a machine from the web or a schedule: 'Lanzamiento remoto'. */
  remote: z.boolean(),
  /** A run not yet finished: the token its stop takes (the history's 'Cancelar' and 'Detener'). */
  executionToken: z.optional(z.string()),
});
export type FlowLog = z.infer<typeof flowLogSchema>;

/** Log lines a run's detail answers at once by default, and at most ('Cargar más líneas' asks for the next ones). */
export const LOG_PAGE_LINES = 200;
export const LOG_PAGE_MAX_LINES = 500;
/** A log line is sent cut to this many characters (the robots' log writer keeps no more). */
export const LOG_LINE_MAX_CHARS = 2_000;

/** GET flowlog/{id}?after=&limit=: which page of the run's log lines comes with it. */
export const flowlogDetailQuerySchema = z.object({
  /** The `logNext` of the page the caller has: lines after it. Absent: from the first line. */
  after: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(LOG_PAGE_MAX_LINES)), LOG_PAGE_LINES),
});

/**
 * A run's file as its detail lists it. Files on the server are kept for the server's retention
 * (FILE_RETENTION_DAYS, 30 days) and then deleted: an expired one is still listed by name, and its
 * download answers 410. Files a desktop run kept on its machine have no expiry here.
 */
export const runOutputFileSchema = z.object({
  name: z.string(),
  /** When the server deletes it (ISO); null for a file kept on a machine. */
  expiresAt: z.nullable(z.string()),
  /** Deleted, or due to be: no longer downloadable. */
  expired: z.boolean(),
});
export type RunOutputFile = z.infer<typeof runOutputFileSchema>;

/**
 * GET flowlog/{id}: one run with a page of its log lines (the history loads it when a row is
 * expanded, and the next pages on demand): `logStreams` holds up to `limit` lines after `after`.
 */
export const flowLogDetailSchema = z.extend(flowLogSchema, {
  /** outputFileNames with what the history needs to offer each: its expiry. */
  outputFiles: z.array(runOutputFileSchema),
  logStreams: z.array(logLineSchema),
  /** Every line the run wrote. */
  logTotal: z.number(),
  /** More lines follow this page. */
  logHasMore: z.boolean(),
  /** The `after` that asks for the lines following this page (null: this page has none). */
  logNext: z.nullable(z.number()),
});
export type FlowLogDetail = z.infer<typeof flowLogDetailSchema>;

export const FLOWLOG_SORT_FIELDS = ['createAt', 'result', 'cost', 'browserFlow'] as const;
export const HISTORY_PAGE_SIZE = 12;
/** The longest search text the history accepts. */
export const HISTORY_SEARCH_MAX_CHARS = 100;

const booleanQuery = z.pipe(z.enum(['true', 'false']), z.transform((value: 'true' | 'false') => value === 'true'));

export const flowlogQuerySchema = z.object({
  sortby: z._default(z.enum(FLOWLOG_SORT_FIELDS), 'createAt'),
  sortdir: z._default(z.enum(['asc', 'desc']), 'desc'),
  start: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), HISTORY_PAGE_SIZE),
  /** true: scheduled and remote launches only; false: manual only; absent: all. */
  scheduled: z.optional(booleanQuery),
  browserFlowSchedule: z.optional(z.string().check(z.uuid())),
  /** One robot's runs (its catalogue id). */
  flow: z.optional(z.string().check(z.regex(/^[\w-]{1,64}$/, 'El robot elegido no es válido'))),
  /** Runs launched on or after this Madrid day (yyyy-mm-dd). */
  from: z.optional(z.iso.date({ error: 'La fecha «Desde» no es válida (aaaa-mm-dd)' })),
  /** Runs launched on or before this Madrid day (yyyy-mm-dd). */
  to: z.optional(z.iso.date({ error: 'La fecha «Hasta» no es válida (aaaa-mm-dd)' })),
  /** Text the robot's name contains (case-insensitive). */
  q: z.optional(z.string().check(z.trim(), z.maxLength(HISTORY_SEARCH_MAX_CHARS, `La búsqueda no puede superar ${HISTORY_SEARCH_MAX_CHARS} caracteres`))),
  /** true: only runs that were let start (launches refused before running, for credits 402 or inputs 400, left out); absent or false: all. */
  ran: z.optional(booleanQuery),
}).check(
  z.refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, { message: 'La fecha «Hasta» es anterior a «Desde»', path: ['to'] }),
);
/** What a caller sends (the schema reads it from the query string). */
export interface FlowlogQuery {
  sortby?: (typeof FLOWLOG_SORT_FIELDS)[number];
  sortdir?: 'asc' | 'desc';
  start?: number;
  limit?: number;
  scheduled?: 'true' | 'false';
  browserFlowSchedule?: string;
  flow?: string;
  from?: string;
  to?: string;
  q?: string;
  ran?: 'true' | 'false';
}

/**
 * A filtered history (robot, dates, search) is counted up to this many runs: past it, `total` is this
 * and `totalCapped` says there are more, so a page stays fast however many runs the filter selects.
 */
export const HISTORY_COUNT_CAP = 1_000;

export const flowlogResponseSchema = z.object({ total: z.number(), items: z.array(flowLogSchema), totalCapped: z.optional(z.boolean()) });
export type FlowlogResponse = z.infer<typeof flowlogResponseSchema>;

export const flowlogStatsSchema = z.object({
  total: z.number(),
  byResult: z.record(z.string(), z.number()),
  /** Slans charged in the current period. */
  cost: z.number(),
  successfulIterations: z.number(),
  totalIterations: z.number(),
});
export type FlowlogStats = z.infer<typeof flowlogStatsSchema>;

/** An .xlsx of the history the query selects, base64-encoded (spec §7 flowlog/report). */
export const flowlogReportSchema = z.object({ filename: z.string(), base64: z.string() });

// ---------------------------------------------------------------------------------------------------
// Schedules (spec §3 Scheduled flow; §7 schedule calls)

export const scheduleRequestSchema = z.object({
  scheduledDate: z.iso.datetime({ offset: true, error: 'Elige fecha y hora' }),
  repeat: z._default(z.boolean(), false),
  every: z._default(z.number().check(z.int(), z.gte(1, 'La repetición debe ser un número entero mayor que 0'), z.lte(1000)), 1),
  interval: z._default(z.enum(SCHEDULE_INTERVALS), 'days'),
  flowInputs: z._default(z.record(z.string(), z.unknown()), {}),
  sendOutputToServer: z._default(z.boolean(), true),
  /** A desktop flow: the machine that runs it (desktop runtime issue); server flows leave it out. */
  machine: z.optional(z.string()),
  localMachineHashCode: z.optional(z.string()),
  localProcess: z.optional(z.enum(['get-fie-siltra', 'sync-fie-a3', 'sync-siltra-a3', 'sync-altas', 'sync-altas-a3', 'update-dehu-notifications'])),
});
export type ScheduleRequest = z.input<typeof scheduleRequestSchema>;

export const scheduledFlowSchema = z.object({
  _id: z.string(),
  browserFlowName: z.string(),
  browserFlow: z.string(),
  localProcess: z.nullable(z.string()),
  scheduledDate: z.string(),
  repeat: z.boolean(),
  every: z.number(),
  interval: z.enum(SCHEDULE_INTERVALS),
  user: z.object({ email: z.string(), name: z.string() }),
  machine: z.nullable(z.object({ _id: z.string(), name: z.string() })),
  flowInputs: z.record(z.string(), z.unknown()),
  sendOutputToServer: z.boolean(),
  updatedAt: z.string(),
});
export type ScheduledFlow = z.infer<typeof scheduledFlowSchema>;

export const schedulesQuerySchema = z.object({
  user: z.optional(z.string()),
  machineHash: z.optional(z.string()),
});
export const schedulesResponseSchema = z.object({ items: z.array(scheduledFlowSchema) });

export const scheduleByIdQuerySchema = z.object({ existSchedule: z.optional(booleanQuery) });
/** With ?existSchedule=true: { exists } instead of a 404 when it is gone (the autopilot's check). */
export const scheduleExistsSchema = z.object({ exists: z.boolean() });

export const scheduleUpdateQuerySchema = z.object({
  scheduledDate: z.iso.datetime({ offset: true, error: 'Elige fecha y hora' }),
});

export const SCHEDULE_FAILED_MESSAGE = 'No se ha podido programar este robot';
