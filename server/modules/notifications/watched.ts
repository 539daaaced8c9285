import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  CERTIFICATE_NOT_ON_MACHINE_MESSAGE,
  type RobotCertificate, type RobotStatus, type WatchedCertificate, type WatchedCertificatesUpdate,
} from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';
import type { DehuWatchedCertificatesTable } from '../../db/schema-notifications.ts';
import { HttpError } from '../../http/errors.ts';
import { isOnline } from '../devices/machine-runs.ts';
import { visibleMachines, type Member } from '../machines/access.ts';
import { pendingMachineUpdates } from './pending-updates.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A linked device acting for its machine (DeviceAuth). */
export interface DeviceMember {
  machineId: string;
  groupId: string;
  userId: string;
}

export function certificateNotOnMachine(path = 'fingerprint'): HttpError {
  return new HttpError(400, 'CERTIFICATE_NOT_ON_MACHINE', CERTIFICATE_NOT_ON_MACHINE_MESSAGE, { issues: [{ path, message: CERTIFICATE_NOT_ON_MACHINE_MESSAGE }] });
}

function lastUpdateOf(row: Pick<DehuWatchedCertificatesTable, 'update_state' | 'update_started_at' | 'update_finished_at' | 'update_found' | 'update_added' | 'update_message'>): WatchedCertificate['lastUpdate'] {
  if (row.update_state === null || row.update_started_at === null) return null;
  return { state: row.update_state, startedAt: row.update_started_at, finishedAt: row.update_finished_at, found: Number(row.update_found), added: Number(row.update_added), message: row.update_message };
}

/** The firm's watched certificates with their machine (as the member sees it) and whether the machine still lists them. */
export async function listWatched(db: Kysely<Database>, member: Member, now: Date): Promise<WatchedCertificate[]> {
  const rows = await db
    .selectFrom('dehu_watched_certificates as w')
    .innerJoin('machines as m', 'm.id', 'w.machine_id')
    .selectAll('w')
    .select((eb) => [
      'm.saved_as as machine_name', 'm.owner_user_id', 'm.last_seen_at',
      eb.exists(eb.selectFrom('machine_certificates as c').select('c.id').whereRef('c.machine_id', '=', 'w.machine_id').whereRef('c.fingerprint', '=', 'w.fingerprint')).as('available'),
    ])
    .where('w.group_id', '=', member.groupId)
    .orderBy('w.common_name')
    .orderBy('w.id')
    .execute();
  const pending = await pendingMachineUpdates(db, member.groupId, rows.map((row) => row.machine_id));
  return rows.map((row) => ({
    fingerprint: row.fingerprint,
    commonName: row.common_name,
    nif: row.nif,
    machine: {
      _id: row.machine_id,
      name: row.machine_name,
      online: isOnline(row.last_seen_at, now),
      mine: row.owner_user_id === member.userId,
    },
    available: Boolean(Number(row.available)),
    lastUpdate: lastUpdateOf(row),
    pendingUpdate: pending.get(row.machine_id) ?? null,
  }));
}

/**
 * Replaces the firm's watched set. Each certificate must be synced on a machine the member can see
 * (their own or shared with the firm); one that is not refuses the whole set, with nothing written.
 * Certificates kept keep their last update.
 */
export async function replaceWatched(db: Kysely<Database>, member: Member, update: WatchedCertificatesUpdate, now: Date): Promise<void> {
  const wanted = new Map(update.certificates.map((item) => [`${item.machineId}/${item.fingerprint}`, item]));
  const found: { machineId: string; fingerprint: string; commonName: string; nif: string | null }[] = [];
  let index = 0;
  for (const item of wanted.values()) {
    const certificate = await db
      .selectFrom('machine_certificates as c')
      .select(['c.common_name', 'c.nif_vat'])
      .where('c.machine_id', 'in', visibleMachines(db, member).clearSelect().select('m.id').where('m.id', '=', item.machineId))
      .where('c.fingerprint', '=', item.fingerprint)
      .executeTakeFirst();
    if (!certificate) throw certificateNotOnMachine(`certificates.${index}`);
    found.push({ ...item, commonName: certificate.common_name, nif: certificate.nif_vat });
    index += 1;
  }
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('dehu_watched_certificates').select(['id', 'machine_id', 'fingerprint']).where('group_id', '=', member.groupId).execute();
    const stale = current.filter((row) => !wanted.has(`${row.machine_id}/${row.fingerprint}`)).map((row) => row.id);
    if (stale.length > 0) await trx.deleteFrom('dehu_watched_certificates').where('id', 'in', stale).execute();
    for (const item of found) await addWatched(trx, member.groupId, item, member.userId, now);
  });
}

async function addWatched(db: Db, groupId: string, item: { machineId: string; fingerprint: string; commonName: string; nif: string | null }, userId: string, now: Date): Promise<void> {
  await db
    .insertInto('dehu_watched_certificates')
    .values({
      id: randomUUID(), group_id: groupId, machine_id: item.machineId, fingerprint: item.fingerprint, common_name: item.commonName, nif: item.nif,
      added_by: userId, created_at: now.toISOString(), update_state: null, update_started_at: null, update_finished_at: null, update_found: 0, update_added: 0, update_message: null,
    })
    .onConflict((conflict) => conflict.columns(['group_id', 'machine_id', 'fingerprint']).doUpdateSet({ common_name: item.commonName, nif: item.nif }))
    .execute();
}

/** The watched certificates of the firm that live on the device's machine. */
export async function robotCertificates(db: Kysely<Database>, device: DeviceMember): Promise<RobotCertificate[]> {
  const rows = await db
    .selectFrom('dehu_watched_certificates')
    .select(['fingerprint', 'common_name', 'nif'])
    .where('group_id', '=', device.groupId)
    .where('machine_id', '=', device.machineId)
    .orderBy('common_name')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ fingerprint: row.fingerprint, commonName: row.common_name, nif: row.nif }));
}

/**
 * The certificate as the device's machine synced it, added to the watched set when it is not yet
 * (the autopilot's 'Notificaciones' app chose it there); one the machine does not list is a 400.
 */
export async function ensureWatchedOnDevice(db: Db, device: DeviceMember, fingerprint: string, now: Date): Promise<{ fingerprint: string; commonName: string; nif: string | null }> {
  const certificate = await db
    .selectFrom('machine_certificates')
    .select(['common_name', 'nif_vat'])
    .where('machine_id', '=', device.machineId)
    .where('group_id', '=', device.groupId)
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  if (!certificate) throw certificateNotOnMachine();
  const item = { machineId: device.machineId, fingerprint, commonName: certificate.common_name, nif: certificate.nif_vat };
  const watched = await db.selectFrom('dehu_watched_certificates').select('id').where('group_id', '=', device.groupId).where('machine_id', '=', device.machineId).where('fingerprint', '=', fingerprint).executeTakeFirst();
  if (!watched) await addWatched(db, device.groupId, item, device.userId, now);
  return { fingerprint, commonName: item.commonName, nif: item.nif };
}

/** One certificate's update started (running), finished (done) or failed (error). */
export async function recordStatus(db: Kysely<Database>, device: DeviceMember, status: RobotStatus, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await ensureWatchedOnDevice(trx, device, status.fingerprint, now);
    const at = now.toISOString();
    const changes =
      status.state === 'running'
        ? { update_state: 'running' as const, update_started_at: at, update_finished_at: null, update_found: 0, update_added: 0, update_message: null }
        : { update_state: status.state, update_finished_at: at, update_found: status.found ?? 0, update_added: status.added ?? 0, update_message: status.message ?? null };
    await trx.updateTable('dehu_watched_certificates').set(changes).where('group_id', '=', device.groupId).where('machine_id', '=', device.machineId).where('fingerprint', '=', status.fingerprint).execute();
    // A finish with no start heard (a lost request) still reads as an update that started then.
    await trx.updateTable('dehu_watched_certificates').set({ update_started_at: at }).where('group_id', '=', device.groupId).where('machine_id', '=', device.machineId).where('fingerprint', '=', status.fingerprint).where('update_started_at', 'is', null).execute();
  });
}
