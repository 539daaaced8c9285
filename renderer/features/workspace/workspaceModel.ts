import { certificateMetadataSchema } from '#shared/certificates/certificate.ts';
import type { CertificateMetadata, LocalCertificate } from '#shared/certificates/certificate.ts';
import { matchesCertificateSearch } from '#shared/certificates/search.ts';
import type { ExpiringCertificate, Machine, SyncedCertificate } from '#shared/api/machines.ts';

/**
 * The selector's rules, apart from React: which machine is this PC, the order of the cards, what a
 * sync sends, and how the search and the radar group things.
 */

const METADATA_FIELDS = Object.keys(certificateMetadataSchema.shape) as (keyof CertificateMetadata)[];

/**
 * Only what the server keeps (certificateMetadataSchema): `location` and `holderNif` stay on this PC,
 * and any other key a desktop might add is left out rather than refused by the server's strict schema.
 */
export function toCertificateMetadata(certificate: LocalCertificate | CertificateMetadata): CertificateMetadata {
  const metadata: Partial<Record<keyof CertificateMetadata, unknown>> = {};
  for (const field of METADATA_FIELDS) metadata[field] = certificate[field];
  return metadata as CertificateMetadata;
}

/** A certificate the server already keeps, as sync metadata again (so a new sync does not drop it). */
export function syncedToMetadata(certificate: SyncedCertificate): CertificateMetadata {
  return {
    fingerprint: certificate.fingerprint,
    serialNumber: certificate.serialNumber,
    subjectString: certificate.subjectString,
    commonName: certificate.subject.CN,
    issuer: certificate.issuer,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    nifVat: certificate.nifVat,
    kind: certificate.kind,
    store: certificate.store,
  };
}

/**
 * The set a sync replaces the server's with: what is synced now plus (add) or minus (remove) the
 * chosen local certificates. Synced ones that this PC did not list this time (a .p12 folder left
 * locked, say) are kept as they were: only the user's choice changes the set.
 */
export function nextSyncedSet(
  syncedNow: readonly SyncedCertificate[],
  chosen: readonly LocalCertificate[],
  change: 'add' | 'remove',
): CertificateMetadata[] {
  const byFingerprint = new Map<string, CertificateMetadata>();
  for (const certificate of syncedNow) byFingerprint.set(certificate.fingerprint, syncedToMetadata(certificate));
  for (const certificate of chosen) {
    if (change === 'add') byFingerprint.set(certificate.fingerprint, toCertificateMetadata(certificate));
    else byFingerprint.delete(certificate.fingerprint);
  }
  return [...byFingerprint.values()];
}

export interface MachineGroups {
  /** This PC's record on the server, when it has been synced before. */
  local: Machine | undefined;
  /** The caller's other machines. */
  mine: Machine[];
  /** Machines other people of the firm share. */
  shared: Machine[];
}

/** Local first (by hash), then the caller's own, then the firm's shared ones; the server's order within each. */
export function groupMachines(machines: readonly Machine[], localHash: string | null): MachineGroups {
  const local = localHash === null ? undefined : machines.find((machine) => machine.machineHashCode === localHash);
  const others = machines.filter((machine) => machine !== local);
  return { local, mine: others.filter((machine) => machine.mine), shared: others.filter((machine) => !machine.mine) };
}

/** The name a certificate is known by on a card, whichever side it comes from. */
export function certificateName(certificate: SyncedCertificate | LocalCertificate): string {
  return 'subject' in certificate ? certificate.subject.CN : certificate.commonName;
}

/** Spec §9: the certificates of one device that match the search (device name + certificate name). */
export function matchingCertificates<T extends SyncedCertificate | LocalCertificate>(
  certificates: readonly T[],
  deviceName: string,
  query: string,
): T[] {
  return certificates.filter((certificate) => matchesCertificateSearch({ deviceName, certificateName: certificateName(certificate) }, query));
}

/** The radar's thresholds, tightest first, as the server reports them (0 = expired). */
export const RADAR_THRESHOLDS = [0, 1, 7, 14, 30, 60] as const;

/** How many certificates fall in each threshold, in the radar's order, leaving out empty ones. */
export function countByThreshold(items: readonly ExpiringCertificate[]): { threshold: number; count: number }[] {
  return RADAR_THRESHOLDS.map((threshold) => ({ threshold, count: items.filter((item) => item.threshold === threshold).length })).filter(
    (entry) => entry.count > 0,
  );
}

/** CCC lines typed in the form: one per line (commas too), blanks dropped, spaces kept for the shared check. */
export function parseCccLines(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** How a machine is reached now, as its card says it: connected, quiet since when, or never linked. */
export type MachineConnection = { tone: 'online'; since: null } | { tone: 'offline'; since: string | null } | { tone: 'unlinked'; since: null };

export function machineConnection(machine: Pick<Machine, 'linked' | 'online' | 'lastSeenAt'> | undefined): MachineConnection {
  if (!machine || (!machine.linked && !machine.online)) return { tone: 'unlinked', since: null };
  if (machine.online) return { tone: 'online', since: null };
  return { tone: 'offline', since: machine.lastSeenAt };
}
