import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { HISTORY_COUNT_CAP } from '#shared/api/flows.ts';
import type { FlowLog, FlowLogDetail, FlowlogResponse, RunOutputFile } from '#shared/api/flows.ts';
import type { FLOWLOG_SORT_FIELDS } from '#shared/api/flows.ts';
import type { Database } from '../../db/schema.ts';
import { parseOutputFileNames } from '../devices/machine-runs.ts';
import { countQuery } from './counts.ts';
import { expiresAt, isExpired } from '../retention/retention.ts';
import { logPage } from './lines.ts';
import { preparedQuery, type SlotOf } from '../../db/prepared.ts';
import { readPlan, readRowsNow, rowsOf, type ReadPlan } from '../../db/direct-reads.ts';
import { searchKey } from '#shared/flows/catalogue.ts';
import { fromMadridParts } from '#shared/time/madrid.ts';

/** The flowlog query once parsed (flowlogQuerySchema): defaults filled in. */
export interface FlowlogFilter {
  sortby: (typeof FLOWLOG_SORT_FIELDS)[number];
  sortdir: 'asc' | 'desc';
  start: number;
  limit: number;
  scheduled?: boolean;
  browserFlowSchedule?: string;
  /** One robot's runs (flow id). */
  flow?: string;
  /** Madrid days (yyyy-mm-dd), both included. */
  from?: string;
  to?: string;
  /** Text the robot's name contains. */
  q?: string;
  /** The robots whose name contains `q` (resolved by withSearch before the runs are read). */
  searchFlowIds?: readonly string[];
  /** Only runs that were let start: a launch refused before running (402 credits, 400 inputs) is left out. */
  ran?: boolean;
}

const SORT_COLUMNS = {
  createAt: 'r.created_at',
  result: 'r.result',
  cost: 'r.cost',
  // The name the run was launched under: indexed, and still there when the flow is gone.
  browserFlow: 'r.flow_name',
} as const satisfies Record<FlowlogFilter['sortby'], string>;

/** The launch_status of a launch refused before it ran (runs/refusals.ts): credits, inputs. */
const REFUSED_LAUNCH_STATUSES = [402, 400] as const;

/** What a page query's SQL depends on, besides its values. */
interface RunsShape {
  sortby: FlowlogFilter['sortby'];
  sortdir: FlowlogFilter['sortdir'];
  byKind: boolean;
  bySchedule: boolean;
  byFlow: boolean;
  byFrom: boolean;
  byTo: boolean;
  /** How many robots the search matched (0: no search). */
  searchFlows: number;
  byRan: boolean;
}

/** The values of one page query. */
type RunsValues = {
  groupId: string;
  /** The robots the search matched (as many as the shape's searchFlows). */
  searchFlowIds: readonly string[];
  scheduled: number;
  scheduleId: string;
  flowId: string;
  /** created_at ≥ this instant (ISO). */
  fromAt: string;
  /** created_at < this instant (ISO): the start of the day after `to`. */
  toAt: string;
  limit: number;
  offset: number;
};

function runsShape(filter: FlowlogFilter): RunsShape {
  return {
    sortby: filter.sortby,
    sortdir: filter.sortdir,
    byKind: filter.scheduled !== undefined,
    bySchedule: filter.browserFlowSchedule !== undefined,
    byFlow: filter.flow !== undefined,
    byFrom: filter.from !== undefined,
    byTo: filter.to !== undefined,
    searchFlows: filter.searchFlowIds?.length ?? 0,
    byRan: filter.ran === true,
  };
}

/** The first instant of a Madrid day given as yyyy-mm-dd, `plusDays` later (a day past the month's end rolls over). */
function madridDayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return fromMadridParts({ year, month, day: date + plusDays }).toISOString();
}

function runsValues(groupId: string, filter: FlowlogFilter): RunsValues {
  return {
    groupId,
    searchFlowIds: filter.searchFlowIds ?? [],
    scheduled: filter.scheduled ? 1 : 0,
    scheduleId: filter.browserFlowSchedule ?? '',
    flowId: filter.flow ?? '',
    fromAt: filter.from === undefined ? '' : madridDayStart(filter.from),
    toAt: filter.to === undefined ? '' : madridDayStart(filter.to, 1),
    limit: filter.limit,
    offset: filter.start,
  };
}

const shapeKey = (shape: RunsShape) => `${shape.sortby} ${shape.sortdir} ${shape.byKind} ${shape.bySchedule} ${shape.byFlow} ${shape.byFrom} ${shape.byTo} ${shape.searchFlows} ${shape.byRan}`;

/** Any filter the group's counters (flow_run_counts) cannot answer: the total is then counted. */
const countedFilter = (shape: RunsShape) => shape.bySchedule || shape.byFlow || shape.byFrom || shape.byTo || shape.searchFlows > 0 || shape.byRan;

/** The runs of the group the filter selects (no order, no page). */
function selectedRuns(db: Kysely<Database>, shape: Omit<RunsShape, 'sortby' | 'sortdir'>, slot: SlotOf<RunsValues>) {
  let query = db.selectFrom('flow_runs as r').where('r.group_id', '=', slot('groupId'));
  if (shape.byKind) query = query.where('r.scheduled', '=', slot('scheduled'));
  if (shape.bySchedule) query = query.where('r.schedule_id', '=', slot('scheduleId'));
  // (group_id, flow_id, created_at, id) reads one robot's page in order (migration 0012).
  if (shape.byFlow) query = query.where('r.flow_id', '=', slot('flowId'));
  if (shape.byFrom) query = query.where('r.created_at', '>=', slot('fromAt'));
  if (shape.byTo) query = query.where('r.created_at', '<', slot('toAt'));
  // The search is by robot name: the few robots it matches, read by their flow_id (indexed, migration 0012).
  if (shape.searchFlows > 0) query = query.where('r.flow_id', 'in', Array.from({ length: shape.searchFlows }, (_, index) => slot('searchFlowIds', index)));
  // A refused launch is kept as a finished run with the refusal's status (runs/refusals.ts); a run's own end never sets 400 or 402.
  if (shape.byRan) query = query.where((eb) => eb.or([eb('r.launch_status', 'is', null), eb('r.launch_status', 'not in', [...REFUSED_LAUNCH_STATUSES])]));
  return query;
}

/**
 * Rows as the screen needs them, in the filter's order: the sort column, then created_at, then id so
 * equal times still page the same way every time. The group's indexes end with those columns
 * (migration 0006), so a page is read in order from one of them.
 */
function orderedRuns(db: Kysely<Database>, shape: RunsShape, slot: SlotOf<RunsValues>) {
  let query = selectedRuns(db, shape, slot)
    .innerJoin('users as u', 'u.id', 'r.user_id')
    // An inactive flow's folder is gone: its runs show that the robot no longer exists.
    .leftJoin('flows as f', (join) => join.onRef('f.id', '=', 'r.flow_id').on('f.active', '=', 1))
    .select([
      'r.id', 'r.flow_id', 'r.flow_name', 'r.result', 'r.state', 'r.stopped_by_user', 'r.created_at', 'r.finished_at',
      'r.scheduled', 'r.schedule_id', 'r.machine_name', 'r.successful_iterations', 'r.total_iterations',
      'r.usage_units', 'r.usage_ratio', 'r.cost', 'r.machine_id', 'r.remote', 'r.send_output_to_server', 'r.output_folder',
      'r.output_file_names', 'r.execution_token', 'u.email', 'u.name as user_name', 'f.name as catalogue_name',
    ]);
  const sortColumn = SORT_COLUMNS[shape.sortby];
  if (sortColumn !== 'r.created_at') query = query.orderBy(sortColumn, shape.sortdir);
  return query.orderBy('r.created_at', shape.sortdir).orderBy('r.id', shape.sortdir);
}

type RunRow = Awaited<ReturnType<ReturnType<typeof orderedRuns>['execute']>>[number];

/** The page query of the history, compiled once per shape. */
const preparedPage = preparedQuery((shape: RunsShape) => shapeKey(shape), (db: Kysely<Database>, shape: RunsShape, slot: SlotOf<RunsValues>) =>
  orderedRuns(db, shape, slot).limit(slot('limit')).offset(slot('offset')),
);

/** One page of the filter's runs (exported so a test can read its plan). */
export function pageQuery(db: Kysely<Database>, groupId: string, filter: FlowlogFilter, shape = runsShape(filter)): CompiledQuery<RunRow> {
  return preparedPage(db, shape, runsValues(groupId, filter));
}

/** A filtered selection's runs are counted (the counters hold the group's totals only). */
const preparedScheduleCount = preparedQuery((shape: RunsShape) => shapeKey(shape), (db: Kysely<Database>, shape: RunsShape, slot: SlotOf<RunsValues>) =>
  // Counted no further than the cap (and one more, to know it was passed): a wide filter over a
  // million runs would otherwise spend its time counting rather than reading the page.
  db.selectFrom(selectedRuns(db, shape, slot).select('r.id').limit(HISTORY_COUNT_CAP + 1).as('selected')).select(sql<number>`count(*)`.as('runs')),
);

/** The outputs of a page's runs, in the order the robots wrote them: one query for a page of this many. */
const preparedOutputs = preparedQuery(
  (runs: number) => runs,
  (db: Kysely<Database>, runs: number, slot: SlotOf<{ runIds: string[] }>) =>
    db
      .selectFrom('stored_files')
      .select(['run_id', 'name'])
      .where('run_id', 'in', Array.from({ length: runs }, (_, index) => slot('runIds', index)))
      .where('kind', '=', 'output')
      // Run by run, then as written: the order of the (run_id, kind, created_at, name) index (migration 0026), so no file of another run is read and nothing is sorted.
      .orderBy('run_id')
      .orderBy('created_at')
      .orderBy('name'),
);

/** The query of these runs' stored outputs, or null for no runs (exported so a test can read its plan). */
export function outputsQuery(db: Kysely<Database>, runs: readonly RunRow[]): CompiledQuery<{ run_id: string | null; name: string }> | null {
  if (runs.length === 0) return null;
  return preparedOutputs(db, runs.length, { runIds: runs.map((run) => run.id) });
}


/**
 * Spec §3 Flow log, from a flow_runs row. `storedOutputs` are the files kept here (downloadable): a
 * server run's, or a remote desktop run's that sent them. A desktop run that kept its files on its
 * machine names them as it left them in its folder there.
 */
function toFlowLog(row: RunRow, storedOutputs: string[]): FlowLog {
  const usageUnits = Number(row.usage_units);
  const keptOnMachine = Number(row.send_output_to_server) === 0;
  return {
    _id: row.id,
    browserFlow: { _id: row.flow_id, name: row.catalogue_name ?? null },
    result: row.result,
    state: row.state,
    stoppedByUser: Number(row.stopped_by_user) === 1,
    createAt: row.created_at,
    finishedAt: row.finished_at,
    scheduled: Number(row.scheduled) === 1,
    browserFlowSchedule: row.schedule_id === null ? null : { _id: row.schedule_id, machine: row.machine_name === null ? null : { name: row.machine_name } },
    successfulIterations: Number(row.successful_iterations),
    totalIterations: Number(row.total_iterations),
    usageHistory: usageUnits > 0 ? [{ usageUnits, usageRatio: Number(row.usage_ratio) }] : [],
    outputFileNames: keptOnMachine ? parseOutputFileNames(row.output_file_names) : storedOutputs,
    outputFolder: row.output_folder,
    user: { email: row.email, name: row.user_name },
    machine: row.machine_name === null ? null : { _id: row.machine_id, name: row.machine_name },
    remote: Number(row.remote) === 1,
    ...(row.state !== 'finished' && { executionToken: row.execution_token }),
  };
}

/** The runs as the history lists them, given their stored outputs (outputsQuery's rows), each run's in the order its robot wrote them. */
function toFlowLogs(rows: readonly RunRow[], files: ReadonlyArray<{ run_id: string | null; name: string }>): FlowLog[] {
  const byRun = new Map<string, string[]>();
  for (const file of files) {
    if (file.run_id === null) continue;
    const names = byRun.get(file.run_id);
    if (names) names.push(file.name);
    else byRun.set(file.run_id, [file.name]);
  }
  return rows.map((row) => toFlowLog(row, byRun.get(row.id) ?? []));
}

/**
 * The query of the total the filter selects: the group's counters unless a filter they do not hold
 * is asked for; then runs counted up to HISTORY_COUNT_CAP, the `cap` past which the total is capped.
 */
function totalQuery(db: Kysely<Database>, groupId: string, filter: FlowlogFilter, shape: RunsShape): { query: CompiledQuery<{ runs: number }>; cap: number } {
  if (!countedFilter(shape)) return { query: countQuery(db, groupId, filter.scheduled), cap: Number.POSITIVE_INFINITY };
  return { query: preparedScheduleCount(db, shape, runsValues(groupId, filter)), cap: HISTORY_COUNT_CAP };
}

/**
 * The robots (in the catalogue, retired ones too) whose name contains the search text, case-insensitive:
 * a handful, so the runs are then read by flow_id from an index instead of matching every run's name.
 */
async function withSearch(db: Kysely<Database>, filter: FlowlogFilter): Promise<FlowlogFilter | null> {
  if (filter.q === undefined || filter.q === '') return filter;
  // The catalogue is a few rows: matched here, ignoring case and accents ('validacion' finds 'Validación').
  const wanted = searchKey(filter.q).trim();
  const flows = await db.selectFrom('flows').select(['id', 'name']).orderBy('id').execute();
  const ids = flows.filter((flow) => searchKey(flow.name).includes(wanted)).map((flow) => flow.id);
  return ids.length === 0 ? null : { ...filter, searchFlowIds: ids };
}

/** One page of the group's history and how many runs the filter selects in all. */
export async function listFlowLogs(db: Kysely<Database>, groupId: string, asked: FlowlogFilter): Promise<FlowlogResponse> {
  const filter = asked.q ? await withSearch(db, asked) : asked;
  if (!filter) return { total: 0, items: [] };
  // On SQLite the count and the page are read at once, from one snapshot (readPlan).
  return readPlan(db, () => historyPage(db, groupId, filter));
}

/** The reads of one page: the total, the page's runs, then those runs' stored outputs. */
function* historyPage(db: Kysely<Database>, groupId: string, filter: FlowlogFilter): ReadPlan<FlowlogResponse> {
  const shape = runsShape(filter);
  const total = totalQuery(db, groupId, filter, shape);
  const counted = Number((yield* rowsOf(total.query))[0]?.runs ?? 0);
  const rows = yield* rowsOf(pageQuery(db, groupId, filter, shape));
  const outputs = outputsQuery(db, rows);
  const files = outputs ? yield* rowsOf(outputs) : [];
  const items = toFlowLogs(rows, files);
  return counted > total.cap ? { total: HISTORY_COUNT_CAP, items, totalCapped: true } : { total: counted, items };
}

/** No filter: one run is read by its id with the page's query and none of its conditions. */
const UNFILTERED: FlowlogFilter = { sortby: 'createAt', sortdir: 'desc', start: 0, limit: 1 };

/** One run of the group by its id, with what a page shows of it. */
const preparedOneRun = preparedQuery(
  () => '',
  (db: Kysely<Database>, _shape: null, slot: SlotOf<RunsValues & { runId: string }>) => orderedRuns(db, runsShape(UNFILTERED), slot).where('r.id', '=', slot('runId')),
);

/** The files a run lists with their expiry: the server's by their stored date; a machine's never expire here. */
async function outputFiles(db: Kysely<Database>, runId: string, names: readonly string[], retention: FileRetention): Promise<RunOutputFile[]> {
  const stored = await db.selectFrom('stored_files').select(['name', 'created_at', 'expired_at']).where('run_id', '=', runId).where('kind', '=', 'output').execute();
  const byName = new Map(stored.map((file) => [file.name, file]));
  return names.map((name) => {
    const file = byName.get(name);
    if (!file) return { name, expiresAt: null, expired: false };
    return { name, expiresAt: expiresAt(file.created_at, retention.days), expired: isExpired(file, retention.now, retention.days) };
  });
}

/** What a file's expiry is judged by: now, and the retention in days (FILE_RETENTION_DAYS). */
export interface FileRetention {
  now: Date;
  days: number;
}

/**
 * One run of the group with a page of its log lines (`limit` after seq `after`) and its files with
 * their expiry, or null when there is none by that id in this group.
 */
export async function findFlowLog(
  db: Kysely<Database>,
  groupId: string,
  runId: string,
  page: { after?: number | undefined; limit: number },
  retention: FileRetention,
): Promise<FlowLogDetail | null> {
  const query = preparedOneRun(db, null, { ...runsValues(groupId, UNFILTERED), runId });
  const rows = readRowsNow(db, query) ?? (await db.executeQuery(query)).rows;
  const row = rows[0];
  if (!row) return null;
  const outputs = outputsQuery(db, rows);
  const files = outputs ? (readRowsNow(db, outputs) ?? (await db.executeQuery(outputs)).rows) : [];
  const [flowLog] = toFlowLogs([row], files) as [FlowLog];
  const log = await logPage(db, runId, page);
  return {
    ...flowLog,
    outputFiles: await outputFiles(db, runId, flowLog.outputFileNames, retention),
    logStreams: log.lines,
    logTotal: log.total,
    logHasMore: log.hasMore,
    logNext: log.next,
  };
}

/** The rows of the report: the whole selection in the filter's order, at most this many. */
export const REPORT_MAX_ROWS = 10_000;

/** A run of the report, with the name it ran under (the report names a robot that is gone). */
export type ReportRun = FlowLog & { flowName: string };

export async function reportFlowLogs(db: Kysely<Database>, groupId: string, asked: FlowlogFilter): Promise<ReportRun[]> {
  const filter = await withSearch(db, asked);
  if (!filter) return [];
  const { rows } = await db.executeQuery(pageQuery(db, groupId, { ...filter, start: 0, limit: REPORT_MAX_ROWS }));
  // Output names are not in the report: no need to read them.
  return rows.map((row) => ({ ...toFlowLog(row, []), flowName: row.flow_name }));
}
