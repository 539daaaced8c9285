import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ActiveSession } from '../auth/sessions.ts';

/** Who is asking: machines are the group's, and some are only their owner's. */
export type Member = Pick<ActiveSession, 'userId' | 'groupId'>;

export const MACHINE_NOT_FOUND_MESSAGE = 'No se ha encontrado este dispositivo';

export function machineNotFound(message = MACHINE_NOT_FOUND_MESSAGE): HttpError {
  return new HttpError(404, 'MACHINE_NOT_FOUND', message);
}

let collator: Intl.Collator | undefined;

/**
 * Names sort as a Spanish reader expects: accents and case do not split 'Óscar' from 'oscar'. The
 * collator is made at the first comparison: making one loads ICU's collation data, 15-30 ms of a start.
 */
export const spanishOrder = {
  compare: (a: string, b: string): number => (collator ??= new Intl.Collator('es', { sensitivity: 'base', numeric: true })).compare(a, b),
};

/**
 * The machines a member can see: the ones they registered and the ones shared with their group.
 * Another member's private machine is as invisible as another group's.
 */
export function visibleMachines(db: Kysely<Database>, member: Member) {
  return db
    .selectFrom('machines as m')
    .innerJoin('users as u', 'u.id', 'm.owner_user_id')
    .select([
      'm.id', 'm.owner_user_id', 'm.machine_hash', 'm.name', 'm.saved_as', 'm.shared', 'm.last_sync_at', 'm.last_seen_at', 'm.created_at',
      'u.email as owner_email', 'u.name as owner_name',
    ])
    .where('m.group_id', '=', member.groupId)
    .where((eb) => eb.or([eb('m.owner_user_id', '=', member.userId), eb('m.shared', '=', 1)]));
}

export type MachineRow = Awaited<ReturnType<ReturnType<typeof visibleMachines>['execute']>>[number];

/**
 * Registers a PC for the member's group with the member as owner, unless the group has it already
 * (by hash). Two first registrations of one PC at once (two syncs, a link and a sync): the unique
 * (group, hash) lets one insert through. Returns the new machine's id when this call created it.
 */
export async function registerMachineIfNew(trx: Transaction<Database>, member: Member, machineHash: string, name: string, at: string): Promise<string | null> {
  const id = randomUUID();
  const inserted = await trx
    .insertInto('machines')
    .values({ id, group_id: member.groupId, owner_user_id: member.userId, machine_hash: machineHash, name, saved_as: name, shared: 0, last_sync_at: null, last_seen_at: null, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['group_id', 'machine_hash']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0 ? id : null;
}
