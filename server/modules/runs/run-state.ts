import type { Kysely, Selectable } from 'kysely';
import type { ExecutionStateResponse, OutputData } from '#shared/api/flows.ts';
import type { Database, FlowRunsTable } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { isOnline, parseOutputFileNames } from '../devices/machine-runs.ts';
import { consoleLinesAfter, consoleTail } from '../flowlogs/lines.ts';

/**
 * Reading runs: one by id, by its launch's idempotency key or by the execution token a group knows
 * it by; the state the launcher is answered (spec §4 Output); what a long poll on it watches.
 */

export const RUN_NOT_FOUND_MESSAGE = 'No se ha encontrado esta ejecución';

export type RunRow = Selectable<FlowRunsTable>;

export function findRunById(db: Kysely<Database>, runId: string): Promise<RunRow> {
  return db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
}

/** The run an earlier launch of this user with this idempotency key started, if any. */
export function findRunByKey(db: Kysely<Database>, userId: string, idempotencyKey: string): Promise<RunRow | undefined> {
  return db.selectFrom('flow_runs').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

/** A run of the group by its execution token; another group's is a 404 like a missing one. */
export async function findGroupRun(db: Kysely<Database>, groupId: string, executionToken: string): Promise<RunRow> {
  const run = await db.selectFrom('flow_runs').selectAll().where('execution_token', '=', executionToken).where('group_id', '=', groupId).executeTakeFirst();
  if (!run) throw new HttpError(404, 'RUN_NOT_FOUND', RUN_NOT_FOUND_MESSAGE);
  return run;
}

async function lineCount(db: Kysely<Database>, runId: string): Promise<number> {
  const row = await db.selectFrom('flow_run_logs').select((eb) => eb.fn.countAll().as('n')).where('run_id', '=', runId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What a long poll watches: the run's state, its iterations and how many log lines it has. */
export async function progressMark(db: Kysely<Database>, runId: string): Promise<{ key: string; lines: number; finished: boolean }> {
  const run = await db.selectFrom('flow_runs').select(['state', 'successful_iterations', 'total_iterations']).where('id', '=', runId).executeTakeFirstOrThrow();
  const lines = await lineCount(db, runId);
  return { key: `${run.state}|${run.successful_iterations}|${run.total_iterations}|${lines}`, lines, finished: run.state === 'finished' };
}

/** The run's state as the launcher is answered: its log lines after `since` and, once finished, its output. */
export async function describeRun(db: Kysely<Database>, now: () => Date, run: RunRow, since: number): Promise<ExecutionStateResponse> {
  // Bounded: the next lines after `since` (the launcher asks again from there), never the whole log.
  const lines = await consoleLinesAfter(db, run.id, since);
  const state: ExecutionStateResponse = {
    executionToken: run.execution_token,
    runId: run.id,
    state: run.state,
    successfulIterations: Number(run.successful_iterations),
    totalIterations: Number(run.total_iterations),
    consoleLog: lines,
    ...(run.machine_name !== null && { machine: await machineOf(db, now, run) }),
  };
  if (run.state !== 'finished') return state;
  const files = await db.selectFrom('stored_files').select(['name', 'size']).where('run_id', '=', run.id).where('kind', '=', 'output').orderBy('name').execute();
  const data: OutputData = {
    runId: run.id,
    files: files.map((file) => ({ name: file.name, size: Number(file.size) })),
    usageUnits: Number(run.usage_units),
    usageRatio: Number(run.usage_ratio),
    cost: Number(run.cost),
    ...(run.summary !== null && { summary: JSON.parse(run.summary) as OutputData['summary'] }),
    ...(run.message !== null && { message: run.message }),
    // A desktop run's files are in its folder on the machine (and in `files` when it sent them here).
    ...(run.machine_name !== null && { outputFolder: run.output_folder, outputFileNames: parseOutputFileNames(run.output_file_names) }),
  };
  return { ...state, output: { data, status: run.launch_status ?? 500, executionToken: run.execution_token, consoleLog: await consoleTail(db, run.id) } };
}

/** The machine a run waits for or runs on, as the launcher shows it (by the name it was launched on, once deleted). */
async function machineOf(db: Kysely<Database>, now: () => Date, run: RunRow): Promise<NonNullable<ExecutionStateResponse['machine']>> {
  const machine = run.machine_id === null ? undefined : await db.selectFrom('machines').select(['id', 'saved_as', 'last_seen_at']).where('id', '=', run.machine_id).executeTakeFirst();
  if (!machine) return { _id: run.machine_id ?? '', name: run.machine_name ?? '', online: false };
  return { _id: machine.id, name: machine.saved_as, online: isOnline(machine.last_seen_at, now()) };
}
