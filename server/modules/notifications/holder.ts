import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { notCertificateMachineMessage } from './messages.ts';
import { notificationNotFound } from './queries.ts';
import type { DeviceMember } from './watched.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The firm's notification, when the calling device's machine holds its certificate: the certificate is
 * among those the machine synced from its store (`machine_certificates`, written only by a signed-in
 * member's sync, never by a device token). Only that machine can open it at DEHÚ (PeticionAcceso is
 * signed with the certificate's key), so only it may mark it opened or attach its documents: any other
 * device of the firm gets 403 and nothing is written; another firm's, or an unknown id, 404.
 */
export async function requireHolderOf(db: Db, device: DeviceMember, notificationId: string): Promise<void> {
  const row = await db
    .selectFrom('dehu_notifications as n')
    .select((eb) => [
      'n.certificate_common_name',
      eb
        .exists(
          eb
            .selectFrom('machine_certificates as c')
            .select('c.id')
            .where('c.machine_id', '=', device.machineId)
            .where('c.group_id', '=', device.groupId)
            .whereRef('c.fingerprint', '=', 'n.certificate_fingerprint'),
        )
        .as('held'),
    ])
    .where('n.group_id', '=', device.groupId)
    .where('n.id', '=', notificationId)
    .executeTakeFirst();
  if (!row) throw notificationNotFound();
  // SQLite answers 0/1, PostgreSQL a boolean.
  if (!Number(row.held)) throw new HttpError(403, 'CERTIFICATE_NOT_ON_THIS_MACHINE', notCertificateMachineMessage(row.certificate_common_name));
}
