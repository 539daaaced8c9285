import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CertificateMetadata, CertificateKind, CertificateStore } from '#shared/certificates/certificate.ts';
import { syncCertificates } from '../modules/machines/certificates.ts';
import type { Database } from './schema.ts';

/**
 * The demo account's office PC: shared with the firm and holding five certificates' metadata, so the
 * machines screen has cards and the expiry radar has something to say right after the seed (one
 * expired 5 days ago, others due in 3, 12 and 45 days, one far off). Every name says it is a demo,
 * and the NIFs and CIFs are valid test numbers. Metadata only: there is no certificate or key behind it.
 */

export const DEMO_MACHINE_NAME = 'PC Oficina';
/** A hash as a desktop computes one (64 hex), derived from a demo label so it cannot be a real PC's. */
export const DEMO_MACHINE_HASH = createHash('sha256').update('autoasesor-demo:PC Oficina').digest('hex');

const DAY_MS = 86_400_000;

interface DemoCertificate {
  commonName: string;
  subject: string;
  issuer: string;
  nifVat: string;
  kind: CertificateKind;
  store: CertificateStore;
  /** Whole days left on the radar at seed time (negative: expired). */
  daysLeft: number;
  /** How long the issuer made it valid for. */
  validYears: number;
}

export const DEMO_CERTIFICATES: readonly DemoCertificate[] = [
  {
    commonName: 'CLIENTE DEMO MARIA - 99999999R',
    subject: 'CN=CLIENTE DEMO MARIA - 99999999R, SN=CLIENTE DEMO, GN=MARIA, serialNumber=IDCES-99999999R, C=ES',
    issuer: 'AC FNMT Usuarios',
    nifVat: '99999999R',
    kind: 'person',
    store: 'windows',
    daysLeft: -5,
    validYears: 4,
  },
  {
    commonName: 'TALLERES DEMO SL - B87654323',
    subject: 'CN=TALLERES DEMO SL - B87654323, 2.5.4.97=VATES-B87654323, O=TALLERES DEMO SL, C=ES',
    issuer: 'AC Representación',
    nifVat: 'B87654323',
    kind: 'entity',
    store: 'pkcs12',
    daysLeft: 3,
    validYears: 2,
  },
  {
    commonName: '12345678Z LAURA GOMEZ DEMO (R: B12345674)',
    subject: 'CN=12345678Z LAURA GOMEZ DEMO (R: B12345674), serialNumber=IDCES-12345678Z, O=ASESORIA DEMO SL, 2.5.4.97=VATES-B12345674, C=ES',
    issuer: 'AC Representación',
    nifVat: 'B12345674',
    kind: 'representative',
    store: 'windows',
    daysLeft: 12,
    validYears: 2,
  },
  {
    commonName: 'GOMEZ DEMO LAURA - 12345678Z',
    subject: 'CN=GOMEZ DEMO LAURA - 12345678Z, SN=GOMEZ DEMO, GN=LAURA, serialNumber=IDCES-12345678Z, C=ES',
    issuer: 'AC FNMT Usuarios',
    nifVat: '12345678Z',
    kind: 'person',
    store: 'windows',
    daysLeft: 45,
    validYears: 4,
  },
  {
    commonName: 'PRUEBA DEMO JUAN - 11111111H',
    subject: 'CN=PRUEBA DEMO JUAN - 11111111H, SN=PRUEBA DEMO, GN=JUAN, serialNumber=IDCES-11111111H, C=ES',
    issuer: 'AC FNMT Usuarios',
    nifVat: '11111111H',
    kind: 'person',
    store: 'windows',
    daysLeft: 400,
    validYears: 4,
  },
];

/** The metadata a desktop would sync for one demo certificate, dated from `now`. */
export function demoCertificateMetadata(certificate: DemoCertificate, now: Date): CertificateMetadata {
  const digest = createHash('sha256').update(`autoasesor-demo:${certificate.subject}`).digest('hex');
  // Half a day past the whole days, so the radar reads `daysLeft` for the first twelve hours.
  const notAfter = new Date(now.getTime() + certificate.daysLeft * DAY_MS + DAY_MS / 2);
  const notBefore = new Date(notAfter);
  notBefore.setUTCFullYear(notBefore.getUTCFullYear() - certificate.validYears);
  return {
    fingerprint: digest,
    serialNumber: digest.slice(0, 32).toUpperCase(),
    subjectString: certificate.subject,
    commonName: certificate.commonName,
    issuer: certificate.issuer,
    notBefore: notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
    nifVat: certificate.nifVat,
    kind: certificate.kind,
    store: certificate.store,
  };
}

/** Registers the demo PC through the same sync the desktop uses, then shares it with the firm. */
export async function seedDemoMachines(db: Kysely<Database>, demo: { userId: string; groupId: string }, now: Date): Promise<void> {
  const { machineId } = await syncCertificates(
    db,
    demo,
    DEMO_MACHINE_NAME,
    { machineHashCode: DEMO_MACHINE_HASH, digitalCertificates: DEMO_CERTIFICATES.map((certificate) => demoCertificateMetadata(certificate, now)) },
    now,
  );
  await db.updateTable('machines').set({ shared: 1 }).where('id', '=', machineId).execute();
}
