import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordRunCreated } from './counts.ts';

/**
 * Test support: rows arranged straight in the database, for what the API cannot produce on demand
 * (runs of every result, weeks apart, of robots since removed). Runs go in the way the launcher
 * inserts them: with the group's counter raised in the same transaction.
 */

export async function memberOf(db: Kysely<Database>, email: string): Promise<{ userId: string; groupId: string }> {
  const user = await db.selectFrom('users').select(['id', 'group_id']).where('email', '=', email).executeTakeFirstOrThrow();
  return { userId: user.id, groupId: user.group_id };
}

export async function insertFlow(
  db: Kysely<Database>,
  flow: { id: string; name: string; runsOn?: 'server' | 'desktop'; active?: boolean; usageRatio?: number },
  now = new Date('2025-01-01T00:00:00Z'),
): Promise<void> {
  await db
    .insertInto('flows')
    .values({
      id: flow.id,
      name: flow.name,
      group_name: 'Pruebas',
      runs_on: flow.runsOn ?? 'server',
      usage_ratio: flow.usageRatio ?? 1,
      definition: JSON.stringify({ name: flow.name }),
      active: flow.active === false ? 0 : 1,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
}

export interface RunFixture {
  groupId: string;
  userId: string;
  flowId: string;
  flowName?: string;
  createdAt: string;
  result?: string | null;
  stoppedByUser?: boolean;
  scheduleId?: string | null;
  machineName?: string | null;
  /** A desktop flow's run: the machine it ran on, launched remotely or from that PC's window. */
  machine?: { id: string | null; name: string };
  remote?: boolean;
  /** A desktop run's folder on its machine and the files it left there (sent to the server only when remote). */
  outputFolder?: string | null;
  outputFileNames?: string[];
  usageUnits?: number;
  usageRatio?: number;
  successfulIterations?: number;
  totalIterations?: number;
  /** Charge the cost in the ledger when the run finishes (at createdAt). */
  charged?: boolean;
  logLines?: Array<{ level: string; text: string }>;
  outputs?: string[];
}

export async function insertRun(db: Kysely<Database>, run: RunFixture): Promise<string> {
  const id = randomUUID();
  const usageUnits = run.usageUnits ?? 0;
  const usageRatio = run.usageRatio ?? 1;
  const finished = run.result !== null;
  const scheduled = (run.scheduleId !== undefined && run.scheduleId !== null) || run.remote === true;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('flow_runs')
      .values({
        id,
        group_id: run.groupId,
        user_id: run.userId,
        flow_id: run.flowId,
        flow_name: run.flowName ?? run.flowId,
        idempotency_key: null,
        execution_token: randomUUID(),
        state: finished ? 'finished' : 'running',
        result: run.result === undefined ? 'Success' : run.result,
        stopped_by_user: run.stoppedByUser ? 1 : 0,
        launch_status: null,
        scheduled: scheduled ? 1 : 0,
        schedule_id: run.scheduleId ?? null,
        machine_name: run.machineName ?? run.machine?.name ?? null,
        machine_id: run.machine?.id ?? null,
        remote: run.remote ? 1 : 0,
        send_output_to_server: run.outputFolder === undefined || run.remote ? 1 : 0,
        output_folder: run.outputFolder ?? null,
        output_file_names: run.outputFileNames === undefined ? null : JSON.stringify(run.outputFileNames),
        successful_iterations: run.successfulIterations ?? 0,
        total_iterations: run.totalIterations ?? 0,
        usage_units: usageUnits,
        usage_ratio: usageRatio,
        cost: usageUnits * usageRatio,
        inputs: '{}',
        summary: null,
        message: null,
        accept_extra_usage: 0,
        lease_owner: null,
        lease_until: null,
        created_at: run.createdAt,
        started_at: run.createdAt,
        finished_at: finished ? run.createdAt : null,
      })
      .execute();
    await recordRunCreated(trx, run.groupId, scheduled);
    for (const [seq, line] of (run.logLines ?? []).entries()) {
      await trx.insertInto('flow_run_logs').values({ run_id: id, seq, level: line.level, text: line.text, created_at: run.createdAt }).execute();
    }
    for (const name of run.outputs ?? []) {
      await trx
        .insertInto('stored_files')
        .values({ id: randomUUID(), group_id: run.groupId, user_id: run.userId, kind: 'output', run_id: id, name, size: 10, content_type: 'application/octet-stream', storage_key: `outputs/${randomUUID()}`, created_at: run.createdAt })
        .execute();
    }
    if (run.charged) {
      await trx
        .insertInto('credit_ledger')
        .values({ id: randomUUID(), group_id: run.groupId, run_id: id, usage_units: usageUnits, usage_ratio: usageRatio, amount: usageUnits * usageRatio, created_at: run.createdAt })
        .execute();
    }
  });
  return id;
}
