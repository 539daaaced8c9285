import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LemaEnvio, LemaRealizada, RobotAccess, RobotOpened, RobotUpsert } from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { isoOrNull, lemaColumns, realizadaState, type LemaColumns } from './mapping.ts';
import { requireHolderOf } from './holder.ts';
import { INVALID_DATE_MESSAGE, INVALID_EVENT_DATE_MESSAGE } from './messages.ts';
import { notificationDocuments, notificationNotFound } from './queries.ts';
import { ensureWatchedOnDevice, type DeviceMember } from './watched.ts';

interface Incoming {
  columns: LemaColumns;
  /** Realizadas only: their state and what the acceso recorded. */
  realizada: Pick<LemaRealizada, 'estado' | 'receptor' | 'csvResguardo'> | null;
}

function invalidDate(path: string, message = INVALID_DATE_MESSAGE): HttpError {
  return new HttpError(400, 'VALIDATION', message, { issues: [{ path, message }] });
}

/** Every item's columns, or a 400 naming the first bad date before anything is written. */
function incomingOf(body: RobotUpsert): Incoming[] {
  const read = (envio: LemaEnvio, path: string) => {
    const disposicion = isoOrNull(envio.fechaPuestaDisposicion);
    if (disposicion === null) throw invalidDate(`${path}.fechaPuestaDisposicion`);
    return lemaColumns(envio, disposicion);
  };
  return [
    ...body.pendientes.map((envio, index) => ({ columns: read(envio, `pendientes.${index}`), realizada: null })),
    ...body.realizadas.map((item, index) => ({ columns: read(item, `realizadas.${index}`), realizada: item })),
  ];
}

/**
 * What Localiza and LocalizaRealizadas found for one certificate of the device's machine, upserted by
 * (firm, identificador) in one transaction: a new one is first seen now; a known one takes what LEMA
 * says now, and a realizada's state replaces 'pendiente' (a pendiente never moves a realizada back).
 */
export async function upsertNotifications(db: Kysely<Database>, device: DeviceMember, body: RobotUpsert, now: Date): Promise<{ added: number; updated: number }> {
  const incoming = incomingOf(body);
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const certificate = await ensureWatchedOnDevice(trx, device, body.fingerprint, now);
    let added = 0;
    let updated = 0;
    for (const { columns, realizada } of incoming) {
      const estado = realizada ? realizadaState(realizada.estado) : 'pendiente';
      const receptor = realizada?.receptor ?? null;
      const inserted = await trx
        .insertInto('dehu_notifications')
        .values({
          ...columns,
          id: randomUUID(), group_id: device.groupId, certificate_fingerprint: certificate.fingerprint, machine_id: device.machineId,
          certificate_common_name: certificate.commonName, estado, receptor_name: receptor?.nombre ?? null, receptor_nif: receptor?.nif ?? null,
          csv_resguardo: realizada?.csvResguardo ?? null, opened_at: null, opened_by: null, first_seen_at: at, updated_at: at,
        })
        .onConflict((conflict) => conflict.columns(['group_id', 'identificador']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        added += 1;
        continue;
      }
      const { identificador, ...lema } = columns;
      await trx
        .updateTable('dehu_notifications')
        .set({
          ...lema,
          updated_at: at,
          ...(realizada && {
            estado,
            ...(receptor && { receptor_name: receptor.nombre, receptor_nif: receptor.nif }),
            ...(realizada.csvResguardo !== null && { csv_resguardo: realizada.csvResguardo }),
          }),
        })
        .where('group_id', '=', device.groupId)
        .where('identificador', '=', identificador)
        .execute();
      updated += 1;
    }
    return { added, updated };
  });
}

/** What PeticionAcceso needs: the firm's notification and the certificate that found it. */
export async function robotAccess(db: Kysely<Database>, device: DeviceMember, id: string): Promise<RobotAccess> {
  const row = await db
    .selectFrom('dehu_notifications as n')
    .leftJoin('dehu_watched_certificates as w', (join) =>
      join.onRef('w.group_id', '=', 'n.group_id').onRef('w.fingerprint', '=', 'n.certificate_fingerprint').onRef('w.machine_id', '=', 'n.machine_id'),
    )
    .select(['n.id', 'n.identificador', 'n.codigo_origen', 'n.concepto', 'n.estado', 'n.certificate_fingerprint', 'n.certificate_common_name', 'w.nif'])
    .where('n.group_id', '=', device.groupId)
    .where('n.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notificationNotFound();
  return {
    _id: row.id,
    identificador: row.identificador,
    codigoOrigen: Number(row.codigo_origen),
    concepto: row.concepto,
    estado: row.estado,
    certificate: { fingerprint: row.certificate_fingerprint, commonName: row.certificate_common_name, nif: row.nif ?? null },
    // An opened notification is never opened again: the desktop answers with what is stored.
    documents: await notificationDocuments(db, row.id),
  };
}

/**
 * PeticionAcceso succeeded (comparecencia): accepted at DEHÚ's time, by the device's user. Only the
 * machine that holds the notification's certificate made it (holder.ts): any other device is 403.
 */
export async function recordOpened(db: Kysely<Database>, device: DeviceMember, id: string, opened: RobotOpened, now: Date): Promise<void> {
  const openedAt = isoOrNull(opened.fechaEvento);
  if (openedAt === null) throw invalidDate('fechaEvento', INVALID_EVENT_DATE_MESSAGE);
  await requireHolderOf(db, device, id);
  const result = await db
    .updateTable('dehu_notifications')
    .set({
      estado: 'aceptada', opened_at: openedAt, opened_by: device.userId, csv_resguardo: opened.csvResguardo,
      receptor_name: opened.receptor.nombre, receptor_nif: opened.receptor.nif, updated_at: now.toISOString(),
    })
    .where('group_id', '=', device.groupId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notificationNotFound();
}
