import type { SyncedCertificate } from '#shared/api/machines.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { CertificateItem } from '../../ui/CertificateItem.tsx';
import type { CertificateItemData } from '../../ui/CertificateItem.tsx';
import { EmptyState } from '../../ui/index.ts';

export function toItemData(certificate: SyncedCertificate): CertificateItemData {
  return { ...certificate, commonName: certificate.subject.CN };
}

export interface SyncedCertificatesProps {
  /** The machine's certificates that match the search. */
  certificates: readonly SyncedCertificate[];
  /** How many it has in all, to tell 'none synced' from 'none match'. */
  total: number;
  machineName: string;
  query: string;
}

/** The certificates a machine has synced to the server, read-only (its keys stay on that PC). */
export function SyncedCertificates({ certificates, total, machineName, query }: SyncedCertificatesProps) {
  if (total === 0) return <EmptyState title={workspace.detail.noSharedCertificates} headingLevel={3} />;
  if (certificates.length === 0) return <p className="ui-muted">{workspace.search.noResults(query)}</p>;
  return (
    <ul className="workspace-certificates" aria-label={workspace.detail.listLabel(machineName)}>
      {certificates.map((certificate, index) => (
        <li key={certificate._id}>
          <CertificateItem certificate={toItemData(certificate)} machineName={machineName} index={index} />
        </li>
      ))}
    </ul>
  );
}
