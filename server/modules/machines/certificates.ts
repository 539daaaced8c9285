import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CertificatesSyncRequest, ExpiringCertificate, SyncedCertificate } from '#shared/api/machines.ts';
import { CERTIFICATE_KINDS, CERTIFICATE_STORES, daysUntil, expiryThreshold, type CertificateMetadata } from '#shared/certificates/certificate.ts';
import type { Database } from '../../db/schema.ts';
import type { MachineCertificatesTable } from '../../db/schema-machines.ts';
import { machineNotFound, registerMachineIfNew, spanishOrder, visibleMachines, type Member } from './access.ts';

const DAY_MS = 86_400_000;
/** The radar keeps showing a certificate for this long after it expired (someone has to renew it). */
export const EXPIRED_SHOWN_DAYS = 30;

/** The machine a certificate is listed under: its id and the name it was saved as. */
export interface CertificateOwner {
  _id: string;
  name: string;
}

type CertificateRow = Pick<
  MachineCertificatesTable,
  'id' | 'machine_id' | 'fingerprint' | 'serial_number' | 'subject_string' | 'common_name' | 'issuer' | 'not_before' | 'not_after' | 'nif_vat' | 'kind' | 'store' | 'synced_at'
>;

const CERTIFICATE_COLUMNS = [
  'c.id', 'c.machine_id', 'c.fingerprint', 'c.serial_number', 'c.subject_string', 'c.common_name', 'c.issuer',
  'c.not_before', 'c.not_after', 'c.nif_vat', 'c.kind', 'c.store', 'c.synced_at',
] as const;

function toSyncedCertificate(row: CertificateRow, machine: CertificateOwner): SyncedCertificate {
  return {
    _id: row.id,
    fingerprint: row.fingerprint,
    serialNumber: row.serial_number,
    subjectString: row.subject_string,
    subject: { CN: row.common_name },
    issuer: row.issuer,
    notBefore: row.not_before,
    notAfter: row.not_after,
    nifVat: row.nif_vat,
    // Rows are written from the contract's enums; a value from a later version reads as the broadest one.
    kind: CERTIFICATE_KINDS.find((kind) => kind === row.kind) ?? 'person',
    store: CERTIFICATE_STORES.find((store) => store === row.store) ?? 'pkcs12',
    machine,
    syncedAt: row.synced_at,
  };
}

/** The certificates of these machines, each machine's sorted by name (CN). */
export async function certificatesOf(db: Kysely<Database>, machines: ReadonlyMap<string, CertificateOwner>): Promise<Map<string, SyncedCertificate[]>> {
  const byMachine = new Map<string, SyncedCertificate[]>();
  if (machines.size === 0) return byMachine;
  const rows = await db.selectFrom('machine_certificates as c').select(CERTIFICATE_COLUMNS).where('c.machine_id', 'in', [...machines.keys()]).execute();
  for (const row of rows) {
    const machine = machines.get(row.machine_id);
    if (!machine) continue;
    const list = byMachine.get(row.machine_id) ?? [];
    list.push(toSyncedCertificate(row, machine));
    byMachine.set(row.machine_id, list);
  }
  for (const list of byMachine.values()) {
    list.sort((a, b) => spanishOrder.compare(a.subject.CN, b.subject.CN) || a.notAfter.localeCompare(b.notAfter) || a.fingerprint.localeCompare(b.fingerprint));
  }
  return byMachine;
}

/** Dates are stored as UTC ISO text, so the radar can compare them as text in SQLite and PostgreSQL alike. */
function utcInstant(text: string): string {
  return new Date(text).toISOString();
}

/** One row per fingerprint: the same certificate found in two stores of one PC is one certificate. */
function uniqueByFingerprint(certificates: readonly CertificateMetadata[]): CertificateMetadata[] {
  const seen = new Map<string, CertificateMetadata>();
  for (const certificate of certificates) if (!seen.has(certificate.fingerprint)) seen.set(certificate.fingerprint, certificate);
  return [...seen.values()];
}

/**
 * POST /api/certificates: registers the PC for the member's group when its hash is new (the member
 * owns it, saved under the name given), and replaces its synced certificates with these, in one
 * transaction: new ones added, known ones updated, missing ones removed (an empty list unsyncs all).
 * A known PC is synced by its owner, or by anyone in the group when it is shared; to anyone else it
 * does not exist (404). Returns the machine's id and whether it was registered now.
 */
export async function syncCertificates(
  db: Kysely<Database>,
  member: Member,
  machineName: string,
  request: CertificatesSyncRequest,
  now: Date,
): Promise<{ machineId: string; created: boolean }> {
  const syncedAt = now.toISOString();
  const certificates = uniqueByFingerprint(request.digitalCertificates);
  return db.transaction().execute(async (trx) => {
    const createdId = await registerMachineIfNew(trx, member, request.machineHashCode, machineName, syncedAt);
    const machine = await visibleMachines(trx, member).where('m.machine_hash', '=', request.machineHashCode).executeTakeFirst();
    if (!machine) throw machineNotFound();

    // Updating the machine first takes its row lock on PostgreSQL, so two syncs of one PC do not interleave.
    // `name` follows what the PC reports; `saved_as` is the user's to change (PATCH). A machine linked
    // before its first sync was saved under the PC's host name: until the user renames it, it follows
    // the name typed for the sync, so the launcher and the card show the same name.
    await trx
      .updateTable('machines')
      .set((eb) => ({
        name: machineName,
        saved_as: eb.case().when('saved_as', '=', eb.ref('name')).then(machineName).else(eb.ref('saved_as')).end(),
        last_sync_at: syncedAt,
        updated_at: syncedAt,
      }))
      .where('id', '=', machine.id)
      .execute();

    let removed = trx.deleteFrom('machine_certificates').where('machine_id', '=', machine.id);
    if (certificates.length > 0) removed = removed.where('fingerprint', 'not in', certificates.map((certificate) => certificate.fingerprint));
    await removed.execute();

    if (certificates.length > 0) {
      await trx
        .insertInto('machine_certificates')
        .values(
          certificates.map((certificate) => ({
            id: randomUUID(),
            machine_id: machine.id,
            group_id: member.groupId,
            fingerprint: certificate.fingerprint,
            serial_number: certificate.serialNumber,
            subject_string: certificate.subjectString,
            common_name: certificate.commonName,
            issuer: certificate.issuer,
            not_before: utcInstant(certificate.notBefore),
            not_after: utcInstant(certificate.notAfter),
            nif_vat: certificate.nifVat,
            kind: certificate.kind,
            store: certificate.store,
            synced_at: syncedAt,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['machine_id', 'fingerprint']).doUpdateSet((eb) => ({
            serial_number: eb.ref('excluded.serial_number'),
            subject_string: eb.ref('excluded.subject_string'),
            common_name: eb.ref('excluded.common_name'),
            issuer: eb.ref('excluded.issuer'),
            not_before: eb.ref('excluded.not_before'),
            not_after: eb.ref('excluded.not_after'),
            nif_vat: eb.ref('excluded.nif_vat'),
            kind: eb.ref('excluded.kind'),
            store: eb.ref('excluded.store'),
            synced_at: eb.ref('excluded.synced_at'),
          })),
        )
        .execute();
    }
    return { machineId: machine.id, created: machine.id === createdId };
  });
}

/**
 * GET /api/certificates/expiring: the radar. Certificates of every machine the member can see that
 * expire within `days`, or expired in the last EXPIRED_SHOWN_DAYS, soonest first, each with its whole
 * days left and the tightest threshold it is within.
 */
/** A certificate a machine synced, by its fingerprint (what a launch checks before queueing), or undefined. */
export async function machineCertificate(db: Kysely<Database>, machineId: string, fingerprint: string): Promise<{ commonName: string; notAfter: string } | undefined> {
  return db
    .selectFrom('machine_certificates')
    .select(['common_name as commonName', 'not_after as notAfter'])
    .where('machine_id', '=', machineId)
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
}

export async function expiringCertificates(db: Kysely<Database>, member: Member, days: number, now: Date): Promise<ExpiringCertificate[]> {
  const until = new Date(now.getTime() + days * DAY_MS).toISOString();
  const since = new Date(now.getTime() - EXPIRED_SHOWN_DAYS * DAY_MS).toISOString();
  const rows = await db
    .selectFrom('machine_certificates as c')
    .innerJoin('machines as m', 'm.id', 'c.machine_id')
    .select(CERTIFICATE_COLUMNS)
    .select('m.saved_as')
    .where('c.group_id', '=', member.groupId)
    .where('m.group_id', '=', member.groupId)
    .where((eb) => eb.or([eb('m.owner_user_id', '=', member.userId), eb('m.shared', '=', 1)]))
    .where('c.not_after', '>=', since)
    .where('c.not_after', '<=', until)
    .orderBy('c.not_after')
    .orderBy('c.common_name')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => {
    const daysLeft = daysUntil(row.not_after, now);
    return {
      ...toSyncedCertificate(row, { _id: row.machine_id, name: row.saved_as }),
      daysLeft,
      // Past 60 days no radar threshold applies: the certificate is within the window asked for.
      threshold: expiryThreshold(daysLeft) ?? days,
    };
  });
}
