import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isRobotResult, uniqueNames } from '#shared/flows/outputs.ts';
import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { RunResultName } from '#shared/runlogs/index.ts';
import type { Database } from '../../db/schema.ts';
import { recordExtraUsage } from '../billing/usage-reports.ts';
import { insertStoredFiles, type FileStorage, type NewStoredFile } from '../storage/service.ts';
import { removeStaging, type StagedOutput } from '../storage/staged-outputs.ts';
import { costOf } from './cost.ts';
import { chargeableUnits } from './reservations.ts';
import type { RunOutcome, StagedOutputs } from './run-child.ts';

/**
 * How a run ends: a worker's outcome (a robot's result, a throw, a crash, a time-out, a stop) turned
 * into what flow_runs records and what is charged, the names its outputs are stored under, and the
 * one transaction that closes it.
 */

export const TIME_LIMIT_MESSAGE = 'Tiempo límite superado';
export const STOPPED_MESSAGE = 'Robot detenido';

/** How a run ends: what flow_runs records and what is charged. */
export interface Closing {
  result: RunResultName;
  launchStatus: number;
  stoppedByUser: boolean;
  /** Units charged (0 for anything but a result the robot returned as Success or WrongInput). */
  usageUnits: number;
  message: string | null;
  summary: Record<string, string | number | boolean> | null;
  /** Outputs given as bytes; stored after the streamed ones. */
  outputs: RobotFile[];
  /**
   * The outputs the robot streamed (run-child.ts): the files stored with the run, and their folder,
   * removed once the run is closed whatever happens (a closing that keeps no file still names it).
   */
  staged?: StagedOutputs;
  logLine: { level: RobotLogLevel; text: string } | null;
}

export function aborted(message: string, stoppedByUser: boolean): Closing {
  return {
    result: 'FlowAborted',
    launchStatus: stoppedByUser ? 202 : 299,
    stoppedByUser,
    usageUnits: 0,
    message,
    summary: null,
    outputs: [],
    logLine: { level: stoppedByUser ? 'warn' : 'error', text: message },
  };
}

export function failed(launchStatus: number, message: string, logText: string): Closing {
  return { result: 'Fail', launchStatus, stoppedByUser: false, usageUnits: 0, message, summary: null, outputs: [], logLine: { level: 'error', text: logText } };
}

function jsonSafeSummary(summary: RobotResult['summary']): Closing['summary'] {
  if (summary === undefined) return null;
  const entries = Object.entries(summary).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/**
 * The spec §4 launch status of each way a run can end. Charged: what the robot reports for Success
 * and WrongInput (it did the work). Not charged: a robot's own Fail, a throw, a crash, a time-out, a
 * stop by the user, and a run the server abandoned.
 */
export function closingFor(outcome: RunOutcome, timeLimitSeconds: number, stopReason: 'user' | 'shutdown'): Closing {
  switch (outcome.kind) {
    case 'result': {
      if (!isRobotResult(outcome.result)) {
        const refused = failed(500, 'El robot no ha devuelto un resultado válido', 'El robot no ha devuelto un resultado válido');
        return outcome.staged ? { ...refused, staged: { folder: outcome.staged.folder, files: [] } } : refused;
      }
      const { result } = outcome;
      const charged = result.result !== 'Fail';
      return {
        result: result.result,
        launchStatus: result.result === 'Success' ? 200 : result.result === 'WrongInput' ? 242 : 500,
        stoppedByUser: false,
        usageUnits: charged ? result.usageUnits : 0,
        message: result.message ?? null,
        summary: jsonSafeSummary(result.summary),
        outputs: result.outputs,
        ...(outcome.staged && { staged: outcome.staged }),
        logLine: result.result === 'Success' ? null : { level: result.result === 'Fail' ? 'error' : 'warn', text: result.message ?? (result.result === 'Fail' ? 'El robot no ha podido terminar' : 'Entradas incorrectas') },
      };
    }
    case 'failed':
      return failed(500, 'El robot no se ha lanzado correctamente', `El robot ha fallado: ${outcome.message}`);
    case 'crashed':
      return failed(500, 'El robot no se ha lanzado correctamente', `El robot se ha detenido por un error: ${outcome.message}`);
    case 'timeout':
      return failed(504, TIME_LIMIT_MESSAGE, `${TIME_LIMIT_MESSAGE}: el robot llevaba ${timeLimitSeconds} s y se ha detenido`);
    case 'stopped':
      return stopReason === 'user' ? aborted(STOPPED_MESSAGE, true) : aborted('El servidor se ha detenido durante la ejecución. No se ha cobrado.', false);
  }
}

/**
 * Which run may be closed: any unfinished one, only a queued one (a stop before it started), only a
 * running one whose lease expired (recovery), or only one running under this lease that still holds
 * (a machine finishing its run).
 */
export type CloseGuard = 'unfinished' | 'queued' | 'expired' | { leaseOwner: string };

/** What a desktop run leaves on its machine: the run's folder there and the files in it. */
export interface DesktopOutputs {
  outputFolder: string | null;
  outputFileNames: string[];
}

export interface ClosingStore {
  db: Kysely<Database>;
  storage: FileStorage;
  now: () => Date;
}

/**
 * A run's outputs in storage, under the names they will be listed by (made unique): the streamed ones
 * first (already on disk: moved), then those given as bytes (written); not yet indexed. A file that
 * fails takes the ones stored before it away with it.
 */
export async function writeOutputs(storage: FileStorage, groupId: string, outputs: readonly RobotFile[], streamed: readonly StagedOutput[] = []): Promise<NewStoredFile[]> {
  const names = uniqueNames([...streamed, ...outputs]);
  const written: NewStoredFile[] = [];
  try {
    for (const [index, file] of streamed.entries()) {
      const { id, storageKey } = storage.newKey(groupId);
      await storage.adopt(file.path, storageKey);
      written.push({ id, storageKey, name: names[index] ?? 'resultado', size: file.size });
    }
    for (const [index, file] of outputs.entries()) {
      const { id, storageKey } = storage.newKey(groupId);
      await storage.write(storageKey, file.data);
      written.push({ id, storageKey, name: names[streamed.length + index] ?? 'resultado', size: file.data.byteLength });
    }
    return written;
  } catch (error) {
    await storage.remove(written.map((file) => file.storageKey));
    throw error;
  }
}

/**
 * Ends a run, once: the run row, its outputs (on disk, then indexed), the ledger debit and the
 * group's usage in one transaction, if the run is in the state `guard` allows. False when it was not
 * (someone else closed it, or the lease was lost: nothing written, nothing charged).
 */
export async function closeRunOnce(store: ClosingStore, runId: string, closing: Closing, guard: CloseGuard, desktop?: DesktopOutputs): Promise<boolean> {
  try {
    return await closeAndStore(store, runId, closing, guard, desktop);
  } finally {
    // Moved into storage by now, or not to be kept: either way nothing of the run stays beside it.
    if (closing.staged) await removeStaging(closing.staged.folder);
  }
}

async function closeAndStore(store: ClosingStore, runId: string, closing: Closing, guard: CloseGuard, desktop?: DesktopOutputs): Promise<boolean> {
  const { db, storage } = store;
  const run = await db.selectFrom('flow_runs').select(['group_id', 'user_id', 'usage_ratio', 'reserved_cost']).where('id', '=', runId).executeTakeFirstOrThrow();
  const now = store.now();
  const written: NewStoredFile[] = [];
  try {
    written.push(...(await writeOutputs(storage, run.group_id, closing.outputs, closing.staged?.files)));
    const usageRatio = Number(run.usage_ratio);
    const closed = await db.transaction().execute(async (trx) => {
      const units = await chargeableUnits(trx, { groupId: run.group_id, usageRatio, reservedCost: Number(run.reserved_cost) }, closing.usageUnits, now);
      const cost = costOf(units, usageRatio);
      let update = trx
        .updateTable('flow_runs')
        .set({
          state: 'finished',
          result: closing.result,
          launch_status: closing.launchStatus,
          stopped_by_user: closing.stoppedByUser ? 1 : 0,
          usage_units: units,
          cost,
          summary: closing.summary === null ? null : JSON.stringify(closing.summary),
          message: closing.message,
          lease_owner: null,
          lease_until: null,
          finished_at: now.toISOString(),
          ...(desktop && { output_folder: desktop.outputFolder, output_file_names: JSON.stringify(desktop.outputFileNames) }),
        })
        .where('id', '=', runId);
      if (guard === 'queued') update = update.where('state', '=', 'queued');
      else if (guard === 'expired') update = update.where('state', '=', 'running').where('lease_until', '<', now.toISOString());
      else if (guard === 'unfinished') update = update.where('state', '!=', 'finished');
      else update = update.where('state', '=', 'running').where('lease_owner', '=', guard.leaseOwner).where('lease_until', '>=', now.toISOString());
      if (Number((await update.executeTakeFirst()).numUpdatedRows) === 0) return false;

      if (closing.logLine) await appendLine(trx, runId, closing.logLine, now);
      if (units < closing.usageUnits) {
        const text = `El robot ha contado ${closing.usageUnits} unidades de uso; se cobran ${units}, lo que cubre tu saldo, porque tu plan no incluye uso adicional.`;
        await appendLine(trx, runId, { level: 'warn', text }, now);
      }
      await insertStoredFiles(trx, { groupId: run.group_id, userId: run.user_id, kind: 'output', runId }, written, now);
      if (cost > 0) {
        await trx.insertInto('credit_ledger').values({ id: randomUUID(), group_id: run.group_id, run_id: runId, usage_units: closing.usageUnits, usage_ratio: usageRatio, amount: cost, created_at: now.toISOString() }).execute();
        // Before used_slans grows: the part of this cost past the plan's limit, for Stripe's meter.
        await recordExtraUsage(trx, { groupId: run.group_id, runId, cost, now });
        // PostgreSQL needs the bound addend typed beside the column, or it guesses an integer and refuses a fractional cost.
        const addend = sql<number>`cast(${cost} as double precision)`;
        await trx.updateTable('subscriptions').set((eb) => ({ used_slans: eb('used_slans', '+', addend), updated_at: now.toISOString() })).where('group_id', '=', run.group_id).execute();
        await trx.updateTable('users').set((eb) => ({ used_slans: eb('used_slans', '+', addend) })).where('id', '=', run.user_id).execute();
      }
      return true;
    });
    if (!closed) await storage.remove(written.map((file) => file.storageKey));
    return closed;
  } catch (error) {
    await storage.remove(written.map((file) => file.storageKey));
    throw error;
  }
}

async function appendLine(trx: Transaction<Database>, runId: string, line: { level: RobotLogLevel; text: string }, now: Date): Promise<void> {
  const last = await trx.selectFrom('flow_run_logs').select((eb) => eb.fn.max('seq').as('last')).where('run_id', '=', runId).executeTakeFirst();
  const seq = last?.last === null || last?.last === undefined ? 0 : Number(last.last) + 1;
  await trx.insertInto('flow_run_logs').values({ run_id: runId, seq, level: line.level, text: line.text, created_at: now.toISOString() }).execute();
}
