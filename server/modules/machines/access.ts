import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ActiveSession } from '../auth/sessions.ts';

/** Who is asking: machines are the group's, and some are only their owner's. */
export type Member = Pick<ActiveSession, 'userId' | 'groupId'>;

export const MACHINE_NOT_FOUND_MESSAGE = 'No se ha encontrado este dispositivo';

export function machineNotFound(message = MACHINE_NOT_FOUND_MESSAGE): HttpError {
  return new HttpError(404, 'MACHINE_NOT_FOUND', message);
}

/** Names sort as a Spanish reader expects: accents and case do not split 'Óscar' from 'oscar'. */
export const spanishOrder = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

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
