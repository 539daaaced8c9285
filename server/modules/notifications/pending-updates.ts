import type { Kysely, Transaction } from 'kysely';
import { UPDATE_NOTIFICATIONS_FLOW_ID, type PendingUpdate } from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The DEHÚ updates of the firm's machines that have not finished: the update flow's unfinished runs
 * (waiting for the machine, or running on it), the oldest of each machine. A run covers every watched
 * certificate of its machine, so a second one while it waits would only repeat it (issue 43).
 */
export async function pendingMachineUpdates(db: Db, groupId: string, machineIds: readonly string[]): Promise<Map<string, PendingUpdate>> {
  const pending = new Map<string, PendingUpdate>();
  if (machineIds.length === 0) return pending;
  const rows = await db
    .selectFrom('flow_runs')
    .select(['id', 'machine_id', 'state', 'created_at'])
    .where('group_id', '=', groupId)
    .where('flow_id', '=', UPDATE_NOTIFICATIONS_FLOW_ID)
    .where('machine_id', 'in', [...new Set(machineIds)])
    .where('state', 'in', ['queued', 'running'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    if (row.machine_id === null || pending.has(row.machine_id)) continue;
    pending.set(row.machine_id, { runId: row.id, state: row.state === 'running' ? 'running' : 'queued', queuedAt: row.created_at });
  }
  return pending;
}

/** The machine's unfinished update when `flowId` is the DEHÚ update flow; null for any other flow or when none waits. */
export async function pendingMachineUpdate(db: Db, groupId: string, flowId: string, machineId: string): Promise<PendingUpdate | null> {
  if (flowId !== UPDATE_NOTIFICATIONS_FLOW_ID) return null;
  return (await pendingMachineUpdates(db, groupId, [machineId])).get(machineId) ?? null;
}
