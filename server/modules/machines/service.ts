import type { Kysely } from 'kysely';
import { MACHINE_DELETE_FAILED_MESSAGE, type Machine, type MachineUpdateRequest } from '#shared/api/machines.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { MACHINE_NOT_FOUND_MESSAGE, machineNotFound, spanishOrder, visibleMachines, type MachineRow, type Member } from './access.ts';
import { certificatesOf, type CertificateOwner } from './certificates.ts';
import { configsOf } from './configs.ts';
import { isOnline } from '../devices/machine-runs.ts';

export const MACHINE_OWNER_ONLY_MESSAGE = 'Solo quien registró este dispositivo puede cambiarlo';
export const MACHINE_DELETE_OWNER_ONLY_MESSAGE = 'Solo quien registró este dispositivo puede eliminarlo';

/** The machines among these whose desktop holds a device token. */
async function linkedMachines(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('device_tokens').select('machine_id').distinct().where('machine_id', 'in', ids).execute();
  return new Set(rows.map((row) => row.machine_id));
}

/** Machines with their certificates (by name), configs and connection; the member's own first, then by saved name. */
async function assemble(db: Kysely<Database>, member: Member, rows: MachineRow[], now: Date): Promise<Machine[]> {
  const ids = rows.map((row) => row.id);
  const owners = new Map<string, CertificateOwner>(rows.map((row) => [row.id, { _id: row.id, name: row.saved_as }]));
  const [certificates, configs, linked] = await Promise.all([certificatesOf(db, owners), configsOf(db, ids), linkedMachines(db, ids)]);
  const machines = rows.map((row): Machine => {
    const own = certificates.get(row.id) ?? [];
    return {
      _id: row.id,
      name: row.name,
      savedAs: row.saved_as,
      machineHashCode: row.machine_hash,
      sync: own.length > 0,
      shared: Number(row.shared) === 1,
      mine: row.owner_user_id === member.userId,
      owner: { email: row.owner_email, name: row.owner_name },
      certificates: own,
      configs: configs.get(row.id) ?? [],
      lastSyncAt: row.last_sync_at,
      linked: linked.has(row.id),
      online: isOnline(row.last_seen_at, now),
      lastSeenAt: row.last_seen_at,
      createdAt: row.created_at,
    };
  });
  return machines.sort(
    (a, b) => Number(b.mine) - Number(a.mine) || spanishOrder.compare(a.savedAs, b.savedAs) || a.createdAt.localeCompare(b.createdAt),
  );
}

/** GET /api/machines: what the member can see, optionally only the PC with this hash. */
export async function listMachines(db: Kysely<Database>, member: Member, filter: { machineHashCode?: string }, now: Date): Promise<Machine[]> {
  let query = visibleMachines(db, member);
  if (filter.machineHashCode !== undefined) query = query.where('m.machine_hash', '=', filter.machineHashCode);
  return assemble(db, member, await query.execute(), now);
}

/** One machine the member can see, whole; anything else is a 404. */
export async function findMachine(db: Kysely<Database>, member: Member, id: string, now: Date): Promise<Machine> {
  const row = await visibleMachines(db, member).where('m.id', '=', id).executeTakeFirst();
  const [machine] = row ? await assemble(db, member, [row], now) : [];
  if (!machine) throw machineNotFound();
  return machine;
}

/**
 * The machine's row when the member may change it. One they cannot see answers 404 as if it did not
 * exist; one shared with them, but registered by someone else, 403.
 */
export async function ownedMachine(db: Kysely<Database>, member: Member, id: string, messages: { notFound: string; notOwner: string }): Promise<MachineRow> {
  const row = await visibleMachines(db, member).where('m.id', '=', id).executeTakeFirst();
  if (!row) throw machineNotFound(messages.notFound);
  if (row.owner_user_id !== member.userId) throw new HttpError(403, 'MACHINE_NOT_OWNER', messages.notOwner);
  return row;
}

/** PATCH: rename or (un)share, by its owner. */
export async function updateMachine(db: Kysely<Database>, member: Member, id: string, changes: MachineUpdateRequest, now: Date): Promise<Machine> {
  await ownedMachine(db, member, id, { notFound: MACHINE_NOT_FOUND_MESSAGE, notOwner: MACHINE_OWNER_ONLY_MESSAGE });
  const set = {
    ...(changes.savedAs !== undefined && { saved_as: changes.savedAs }),
    ...(changes.shared !== undefined && { shared: changes.shared ? 1 : 0 }),
  };
  if (Object.keys(set).length > 0) {
    await db.updateTable('machines').set({ ...set, updated_at: now.toISOString() }).where('id', '=', id).where('group_id', '=', member.groupId).execute();
  }
  return findMachine(db, member, id, now);
}

/** DELETE, by its owner: its certificates and configs go with it (the tables cascade). */
export async function deleteMachine(db: Kysely<Database>, member: Member, id: string): Promise<void> {
  await ownedMachine(db, member, id, { notFound: MACHINE_DELETE_FAILED_MESSAGE, notOwner: MACHINE_DELETE_OWNER_ONLY_MESSAGE });
  await db.deleteFrom('machines').where('id', '=', id).where('group_id', '=', member.groupId).where('owner_user_id', '=', member.userId).execute();
}
