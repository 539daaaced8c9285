import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { fromMadridParts, toMadridParts } from '#shared/time/index.ts';
import { recordRunCreated } from '../modules/flowlogs/counts.ts';
import type { DemoRobotRun } from './demo-files.ts';
import { fileDate } from './demo-file-date.ts';
import type { DemoFlowId } from './demo-input.ts';
import type { Database } from './schema.ts';

/**
 * The demo account's run history: three weeks of finished runs of the built-in flows, manual and from
 * a daily schedule, with their log lines and ledger rows. What they were charged adds up to the
 * demo's used credits (DEMO_USED_SLANS), so the history and the balance tell the same story.
 * The successful runs get their input, outputs, log and figures from their robots just after the
 * first start (demo-files.ts); the seed leaves them the run's size and no lines until then.
 */


const FLOWS: Record<DemoFlowId, { name: string; usageRatio: number; rowsPerUnit: number }> = {
  'validar-identificadores': { name: 'Validar identificadores', usageRatio: 1, rowsPerUnit: 100 },
  'fie-incidencias-a3': { name: 'FIE a incidencias A3', usageRatio: 1, rowsPerUnit: 1 },
  'comprobar-altas-red': { name: 'Comprobar datos para altas en RED', usageRatio: 2, rowsPerUnit: 100 },
};

type DemoOutcome = 'Success' | 'WrongInput' | 'Fail' | 'Stopped';

interface DemoRun {
  daysAgo: number;
  /** Madrid wall clock. */
  at: string;
  flow: DemoFlowId;
  outcome: DemoOutcome;
  /** Rows, workers or FIE entries the robot went through (its input's size, for a successful run). */
  items: number;
  /** Of those, the ones with a problem: for a stopped run (a successful one's come from its robot). */
  problems?: number;
  /** Launched by the demo's daily 08:00 schedule. */
  scheduled?: boolean;
}

/** Oldest first. Only Success runs are charged here: the WrongInput ones found nothing to work on. */
const DEMO_RUNS: readonly DemoRun[] = [
  { daysAgo: 20, at: '09:15', flow: 'validar-identificadores', outcome: 'Success', items: 412 },
  { daysAgo: 20, at: '09:40', flow: 'fie-incidencias-a3', outcome: 'Success', items: 63 },
  { daysAgo: 19, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 48, scheduled: true },
  { daysAgo: 19, at: '12:10', flow: 'comprobar-altas-red', outcome: 'Success', items: 130 },
  { daysAgo: 18, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 55, scheduled: true },
  { daysAgo: 18, at: '10:30', flow: 'validar-identificadores', outcome: 'WrongInput', items: 0 },
  { daysAgo: 17, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 71, scheduled: true },
  { daysAgo: 17, at: '16:45', flow: 'validar-identificadores', outcome: 'Fail', items: 0 },
  { daysAgo: 16, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 39, scheduled: true },
  { daysAgo: 16, at: '11:20', flow: 'comprobar-altas-red', outcome: 'Success', items: 487 },
  { daysAgo: 15, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 66, scheduled: true },
  { daysAgo: 14, at: '09:05', flow: 'validar-identificadores', outcome: 'Success', items: 1_180 },
  { daysAgo: 13, at: '10:00', flow: 'fie-incidencias-a3', outcome: 'Stopped', items: 212, problems: 122 },
  { daysAgo: 12, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 58, scheduled: true },
  { daysAgo: 12, at: '13:30', flow: 'validar-identificadores', outcome: 'Success', items: 260 },
  { daysAgo: 11, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 82, scheduled: true },
  { daysAgo: 11, at: '17:10', flow: 'comprobar-altas-red', outcome: 'WrongInput', items: 0 },
  { daysAgo: 10, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 44, scheduled: true },
  { daysAgo: 9, at: '09:50', flow: 'fie-incidencias-a3', outcome: 'Success', items: 106 },
  { daysAgo: 9, at: '12:00', flow: 'validar-identificadores', outcome: 'Success', items: 845 },
  { daysAgo: 8, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 61, scheduled: true },
  { daysAgo: 7, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 53, scheduled: true },
  { daysAgo: 7, at: '10:15', flow: 'comprobar-altas-red', outcome: 'Success', items: 215 },
  { daysAgo: 6, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 77, scheduled: true },
  { daysAgo: 5, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Fail', items: 0, scheduled: true },
  { daysAgo: 5, at: '11:40', flow: 'validar-identificadores', outcome: 'Success', items: 530 },
  { daysAgo: 4, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 49, scheduled: true },
  { daysAgo: 3, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 68, scheduled: true },
  { daysAgo: 3, at: '15:20', flow: 'fie-incidencias-a3', outcome: 'Success', items: 104 },
  { daysAgo: 2, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 57, scheduled: true },
  { daysAgo: 2, at: '09:30', flow: 'comprobar-altas-red', outcome: 'Success', items: 96 },
  { daysAgo: 1, at: '08:00', flow: 'fie-incidencias-a3', outcome: 'Success', items: 72, scheduled: true },
  { daysAgo: 1, at: '12:45', flow: 'validar-identificadores', outcome: 'Success', items: 1_940 },
];

/** The oldest demo run's age: the demo's billing period must have begun before it. */
export const DEMO_HISTORY_DAYS = Math.max(...DEMO_RUNS.map((run) => run.daysAgo));

function usageUnits(run: DemoRun): number {
  if (run.outcome !== 'Success') return 0;
  return Math.ceil(run.items / FLOWS[run.flow].rowsPerUnit);
}

/** What the demo runs were charged in all. */
export function demoRunsCost(): number {
  return DEMO_RUNS.reduce((total, run) => total + usageUnits(run) * FLOWS[run.flow].usageRatio, 0);
}

/** The run's start: `daysAgo` days before today on the Madrid calendar, at its wall-clock time. */
function startOf(run: DemoRun, now: Date): Date {
  const today = toMadridParts(now);
  const [hour, minute] = run.at.split(':').map(Number);
  return fromMadridParts({ year: today.year, month: today.month, day: today.day - run.daysAgo, hour: hour ?? 9, minute: minute ?? 0, second: 0, millisecond: 0 });
}

/** The lines the built-in robots wrote for a run that did not succeed (a successful run's come from its robot). */
function logLines(run: DemoRun, startedAt: Date): Array<{ level: 'info' | 'warn' | 'error'; text: string }> {
  if (run.outcome === 'Success') return [];
  if (run.outcome === 'Stopped') return [{ level: 'info', text: `«FIE_${fileDate(startedAt)}.txt» (FIE4): ${run.items} partes.` }, { level: 'warn', text: 'Robot detenido' }];
  switch (run.flow) {
    case 'validar-identificadores':
      return run.outcome === 'WrongInput'
        ? [{ level: 'error', text: 'La hoja «Hoja1» no tiene ninguna columna de NIF/NIE, NAF, IBAN o CCC.' }]
        : [{ level: 'error', text: 'No se ha podido leer «plantilla marzo.xlsx»: el archivo está dañado.' }];
    case 'fie-incidencias-a3':
      return [{ level: 'error', text: `Error al procesar un FIE [texto]: «FIE_${fileDate(startedAt)}.txt». El archivo está vacío.` }];
    case 'comprobar-altas-red':
      return [{ level: 'error', text: 'La hoja «Altas» no tiene filas con datos.' }];
  }
}

const RESULT_OF: Record<DemoOutcome, { result: string; launchStatus: number }> = {
  Success: { result: 'Success', launchStatus: 200 },
  WrongInput: { result: 'WrongInput', launchStatus: 242 },
  Fail: { result: 'Fail', launchStatus: 500 },
  Stopped: { result: 'FlowAborted', launchStatus: 202 },
};

/**
 * Writes the demo history for the demo user; the runs, their counters, lines and charges in one
 * transaction, and returns the successful runs, whose robots are to run next (demo-files.ts). Runs, lines and charges go in one multi-row insert each (about 40 statements instead
 * of 200; the seed is part of a first start).
 */
export async function seedDemoRuns(db: Kysely<Database>, demo: { userId: string; groupId: string }, now: Date): Promise<DemoRobotRun[]> {
  // The daily 08:00 schedule the scheduled runs came from; the demo user has since removed it.
  const scheduleId = randomUUID();
  const runs: Insertable<Database['flow_runs']>[] = [];
  const logs: Insertable<Database['flow_run_logs']>[] = [];
  const charges: Insertable<Database['credit_ledger']>[] = [];
  const robotRuns: DemoRobotRun[] = [];
  for (const run of DEMO_RUNS) {
    const id = randomUUID();
    const startedAt = startOf(run, now);
    const lines = logLines(run, startedAt);
    const finishedAt = new Date(startedAt.getTime() + (4 + run.items / 25) * 1000);
    const units = usageUnits(run);
    const { usageRatio, name } = FLOWS[run.flow];
    const { result, launchStatus } = RESULT_OF[run.outcome];
    runs.push({
      id,
      group_id: demo.groupId,
      user_id: demo.userId,
      flow_id: run.flow,
      flow_name: name,
      idempotency_key: null,
      execution_token: randomUUID(),
      state: 'finished',
      result,
      stopped_by_user: run.outcome === 'Stopped' ? 1 : 0,
      launch_status: launchStatus,
      scheduled: run.scheduled ? 1 : 0,
      schedule_id: run.scheduled ? scheduleId : null,
      machine_name: null,
      machine_id: null,
      remote: 0,
      send_output_to_server: 1,
      output_folder: null,
      output_file_names: null,
      // A successful run's figures are its robot's, written with its files (demo-files.ts).
      successful_iterations: run.outcome === 'Success' ? 0 : run.items - (run.problems ?? 0),
      total_iterations: run.items,
      usage_units: units,
      usage_ratio: usageRatio,
      cost: units * usageRatio,
      inputs: '{}',
      summary: null,
      message: run.outcome === 'Success' ? null : (lines.at(-1)?.text ?? null),
      accept_extra_usage: 0,
      lease_owner: null,
      lease_until: null,
      created_at: startedAt.toISOString(),
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
    });
    for (const [seq, line] of lines.entries()) {
      logs.push({ run_id: id, seq, level: line.level, text: line.text, created_at: new Date(startedAt.getTime() + seq * 1000).toISOString() });
    }
    if (run.outcome === 'Success') robotRuns.push({ runId: id, ...demo, flowId: run.flow, items: run.items, startedAt, finishedAt, usageUnits: units });
    if (units > 0) {
      charges.push({ id: randomUUID(), group_id: demo.groupId, run_id: id, usage_units: units, usage_ratio: usageRatio, amount: units * usageRatio, created_at: finishedAt.toISOString() });
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('flow_runs').values(runs).execute();
    for (const run of DEMO_RUNS) await recordRunCreated(trx, demo.groupId, run.scheduled === true);
    await trx.insertInto('flow_run_logs').values(logs).execute();
    if (charges.length > 0) await trx.insertInto('credit_ledger').values(charges).execute();
  });
  return robotRuns;
}
