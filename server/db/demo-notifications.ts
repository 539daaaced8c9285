import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { NotificationDocument } from '#shared/api/notifications.ts';
import type { LemaEnvio, NotificationState } from '#shared/api/notifications.ts';
import { lemaColumns } from '../modules/notifications/mapping.ts';
import { DEMO_CERTIFICATES, DEMO_MACHINE_HASH, demoCertificateMetadata } from './demo-machines.ts';
import type { FileStorage } from '../modules/storage/service.ts';
import type { Database } from './schema.ts';

/**
 * The demo account's DEHÚ notifications (issue 24): three watched certificates of the demo PC, updated
 * two hours ago, and the notifications they found: pending ones across the last ten days (one expiring
 * tomorrow, one new today, a comunicación) and two already realizadas. Identifiers are plainly demo ones.
 * The accepted one has its notice and acuse (issue 43: a new user sees the document viewer): PDFs the
 * repository holds in server/db/demo-documents/, written by the DEHÚ stand-in's own PDF writer
 * (standins/portal/pdf.ts, as standins/dehu/mailbox.ts's noticePdf and acuse), without their instants.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The demo certificates the firm watches (by common name), all still valid. */
const WATCHED = ['TALLERES DEMO SL - B87654323', '12345678Z LAURA GOMEZ DEMO (R: B12345674)', 'GOMEZ DEMO LAURA - 12345678Z'];

const AEAT = { codigo: 'E04921901', nombre: 'Agencia Estatal de Administración Tributaria' };
const TGSS = { codigo: 'E04975701', nombre: 'Tesorería General de la Seguridad Social' };
const DGT = { codigo: 'E00130201', nombre: 'Dirección General de Tráfico' };
const AYTO = { codigo: 'L01460250', nombre: 'Ayuntamiento de Valencia' };

interface DemoNotification {
  certificate: string;
  identificador: string;
  organismo: { codigo: string; nombre: string };
  procedimiento: string | null;
  concepto: string;
  titular: { nombre: string; nif: string };
  /** How long ago it was put at the firm's disposal. */
  daysAgo: number;
  tipoEnvio?: 1 | 2;
  estado?: NotificationState;
  /** Files of server/db/demo-documents/, stored as this notification's documents. */
  documents?: readonly { kind: NotificationDocument['kind']; file: string }[];
}

const TALLERES = { nombre: 'TALLERES DEMO SL', nif: 'B87654323' };
const ASESORIA = { nombre: 'ASESORIA DEMO SL', nif: 'B12345674' };
const LAURA = { nombre: 'LAURA GOMEZ DEMO', nif: '12345678Z' };

const NOTIFICATIONS: readonly DemoNotification[] = [
  { certificate: WATCHED[0]!, identificador: 'DEMO-0001', organismo: AEAT, procedimiento: 'G322', concepto: 'Requerimiento de información. IVA 2025 3T', titular: TALLERES, daysAgo: 9.2 },
  { certificate: WATCHED[0]!, identificador: 'DEMO-0002', organismo: TGSS, procedimiento: 'R001', concepto: 'Providencia de apremio', titular: TALLERES, daysAgo: 6 },
  { certificate: WATCHED[1]!, identificador: 'DEMO-0003', organismo: AEAT, procedimiento: 'GC01', concepto: 'Propuesta de liquidación provisional. Sociedades 2024', titular: ASESORIA, daysAgo: 3 },
  { certificate: WATCHED[2]!, identificador: 'DEMO-0004', organismo: DGT, procedimiento: null, concepto: 'Notificación de denuncia', titular: LAURA, daysAgo: 0.3 },
  { certificate: WATCHED[1]!, identificador: 'DEMO-0005', organismo: AYTO, procedimiento: 'IBI', concepto: 'Aviso de cargo del IBI', titular: ASESORIA, daysAgo: 2, tipoEnvio: 1 },
  { certificate: WATCHED[0]!, identificador: 'DEMO-0006', organismo: AEAT, procedimiento: 'G303', concepto: 'Acuerdo de devolución. IVA 2025 2T', titular: TALLERES, daysAgo: 20, estado: 'aceptada',
    documents: [{ kind: 'documento', file: 'DEMO-0006.pdf' }, { kind: 'acuse', file: 'acuse-DEMO-0006.pdf' }] },
  { certificate: WATCHED[2]!, identificador: 'DEMO-0007', organismo: TGSS, procedimiento: 'A002', concepto: 'Resolución de alta en RETA', titular: LAURA, daysAgo: 30, estado: 'expirada' },
];

/** The demo's documents folder, found from this file whether it runs as source (server/db/) or bundled (dist/server/). */
export function demoDocumentsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'server', 'db', 'demo-documents');
}

/** `storage`: where the documents go; without it (a seed test of the rows alone) the notifications have none. */
export async function seedDemoNotifications(db: Kysely<Database>, demo: { userId: string; groupId: string }, now: Date, storage?: FileStorage): Promise<void> {
  const machine = await db.selectFrom('machines').select('id').where('group_id', '=', demo.groupId).where('machine_hash', '=', DEMO_MACHINE_HASH).executeTakeFirstOrThrow();
  const certificates = new Map(
    DEMO_CERTIFICATES.filter((certificate) => WATCHED.includes(certificate.commonName)).map((certificate) => [certificate.commonName, demoCertificateMetadata(certificate, now)]),
  );
  const updatedAt = new Date(now.getTime() - 2 * HOUR_MS);
  for (const certificate of certificates.values()) {
    await db
      .insertInto('dehu_watched_certificates')
      .values({
        id: randomUUID(), group_id: demo.groupId, machine_id: machine.id, fingerprint: certificate.fingerprint, common_name: certificate.commonName, nif: certificate.nifVat,
        added_by: demo.userId, created_at: new Date(now.getTime() - 40 * DAY_MS).toISOString(),
        update_state: 'done', update_started_at: new Date(updatedAt.getTime() - 20_000).toISOString(), update_finished_at: updatedAt.toISOString(),
        update_found: NOTIFICATIONS.filter((item) => item.certificate === certificate.commonName).length, update_added: 0, update_message: null,
      })
      .execute();
  }
  for (const item of NOTIFICATIONS) {
    const certificate = certificates.get(item.certificate);
    if (!certificate) throw new Error(`Certificado de demostración desconocido: ${item.certificate}`);
    const disposicion = new Date(now.getTime() - item.daysAgo * DAY_MS);
    disposicion.setUTCMilliseconds(0);
    const envio: LemaEnvio = {
      identificador: item.identificador, codigoOrigen: 1, concepto: item.concepto, descripcion: null, organismoEmisor: item.organismo, organismoEmisorRaiz: null,
      fechaPuestaDisposicion: disposicion.toISOString(), tipoEnvio: item.tipoEnvio ?? 2, vinculo: item.titular.nif === certificate.nifVat ? 1 : 3,
      titular: item.titular, metadatosPublicos: null, codigoProcedimiento: item.procedimiento,
    };
    const estado = item.estado ?? 'pendiente';
    const accepted = estado === 'aceptada';
    const seenAt = new Date(Math.min(now.getTime() - HOUR_MS * 2, disposicion.getTime() + HOUR_MS)).toISOString();
    const notificationId = randomUUID();
    await db
      .insertInto('dehu_notifications')
      .values({
        ...lemaColumns(envio, disposicion.toISOString()),
        id: notificationId, group_id: demo.groupId, certificate_fingerprint: certificate.fingerprint, machine_id: machine.id, certificate_common_name: certificate.commonName,
        estado, receptor_name: accepted ? item.titular.nombre : null, receptor_nif: accepted ? item.titular.nif : null, csv_resguardo: accepted ? 'DEMO-CSV-0006' : null,
        opened_at: accepted ? new Date(disposicion.getTime() + 2 * DAY_MS).toISOString() : null, opened_by: accepted ? demo.userId : null,
        first_seen_at: seenAt, updated_at: updatedAt.toISOString(),
      })
      .execute();
    if (storage === undefined) continue;
    const openedAt = new Date(disposicion.getTime() + 2 * DAY_MS);
    // In the order the desktop stores them (notice, then acuse), a second apart: the detail lists them so.
    for (const [index, document] of (item.documents ?? []).entries()) {
      const data = await readFile(join(demoDocumentsFolder(), document.file));
      const { id, storageKey } = storage.newKey(demo.groupId);
      await storage.write(storageKey, data);
      await db
        .insertInto('dehu_documents')
        .values({
          id, notification_id: notificationId, group_id: demo.groupId, kind: document.kind, name: document.file, mime_type: 'application/pdf',
          size: data.length, sha256: createHash('sha256').update(data).digest('hex'), storage_key: storageKey, created_at: new Date(openedAt.getTime() + index * 1000).toISOString(),
        })
        .execute();
    }
  }
}
