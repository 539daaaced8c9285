import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DeviceIdentity, DeviceLink, DeviceLinkRequest } from '#shared/api/devices.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { MACHINE_NOT_FOUND_MESSAGE, registerMachineIfNew, type Member } from '../machines/access.ts';
import { ownedMachine } from '../machines/service.ts';
import { deviceTokenInvalid, newDeviceToken, type DeviceCaller } from './auth.ts';

export const DEVICE_OF_ANOTHER_MESSAGE = 'Este dispositivo pertenece a otra persona de tu despacho';
export const REVOKE_OWNER_ONLY_MESSAGE = 'Solo quien registró este dispositivo puede revocar su acceso';

/**
 * POST /api/machines/link: registers the PC for the member's firm when its hash is new (the member
 * owns it, as with the certificates sync), and gives it a new device token; earlier tokens of the
 * machine stop working. Only the machine's owner may link it: a colleague's PC answers 403.
 */
export async function linkDevice(db: Kysely<Database>, member: Member, request: DeviceLinkRequest, now: Date): Promise<{ link: DeviceLink; created: boolean }> {
  const at = now.toISOString();
  const { token, tokenHash } = newDeviceToken();
  return db.transaction().execute(async (trx) => {
    const createdId = await registerMachineIfNew(trx, member, request.machineHashCode, request.machineName, at);
    const machine = await trx
      .selectFrom('machines')
      .select(['id', 'owner_user_id', 'saved_as'])
      .where('group_id', '=', member.groupId)
      .where('machine_hash', '=', request.machineHashCode)
      .executeTakeFirstOrThrow();
    if (machine.owner_user_id !== member.userId) throw new HttpError(403, 'MACHINE_NOT_OWNER', DEVICE_OF_ANOTHER_MESSAGE);

    // `name` follows what the PC reports; `saved_as` stays the user's.
    await trx.updateTable('machines').set({ name: request.machineName, updated_at: at }).where('id', '=', machine.id).execute();
    await trx.deleteFrom('device_tokens').where('machine_id', '=', machine.id).execute();
    await trx
      .insertInto('device_tokens')
      .values({ id: randomUUID(), machine_id: machine.id, group_id: member.groupId, user_id: member.userId, token_hash: tokenHash, created_at: at, last_used_at: null })
      .execute();
    return { link: { machine: { _id: machine.id, name: machine.saved_as }, deviceToken: token }, created: machine.id === createdId };
  });
}

/** DELETE /api/machines/:id/device-token, by the machine's owner: its desktop is signed out at once. */
export async function revokeDeviceToken(db: Kysely<Database>, member: Member, machineId: string): Promise<void> {
  await ownedMachine(db, member, machineId, { notFound: MACHINE_NOT_FOUND_MESSAGE, notOwner: REVOKE_OWNER_ONLY_MESSAGE });
  await db.deleteFrom('device_tokens').where('machine_id', '=', machineId).where('group_id', '=', member.groupId).execute();
}

/** GET /api/device/me: the machine and the user a token acts for. */
export async function deviceIdentity(db: Kysely<Database>, caller: DeviceCaller): Promise<DeviceIdentity> {
  const row = await db
    .selectFrom('device_tokens as t')
    .innerJoin('machines as m', 'm.id', 't.machine_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['m.id', 'm.saved_as', 'u.email', 'u.name'])
    .where('t.id', '=', caller.tokenId)
    .executeTakeFirst();
  if (!row) throw deviceTokenInvalid();
  return { machine: { _id: row.id, name: row.saved_as }, user: { email: row.email, name: row.name } };
}
