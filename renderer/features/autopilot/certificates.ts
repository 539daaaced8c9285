import { CERTIFICATE_APP_IDS } from '#shared/autopilot/state.ts';
import type { AutopilotApp, AutopilotCertificate, CertificateAppId } from '#shared/autopilot/state.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';

export function isCertificateApp(app: string): app is CertificateAppId {
  return (CERTIFICATE_APP_IDS as readonly string[]).includes(app);
}

/** What the desktop keeps of a chosen certificate: its identity and the name the panel lists it by. */
export function toAutopilotCertificate(certificate: Pick<LocalCertificate, 'fingerprint' | 'commonName'>): AutopilotCertificate {
  return { fingerprint: certificate.fingerprint, commonName: certificate.commonName };
}

/**
 * The app's certificates after 'Añadir': with certsConfig.multiple the chosen ones join those it has;
 * otherwise the one chosen replaces it.
 */
export function withAdded(app: Pick<AutopilotApp, 'certificates' | 'multipleCertificates'>, chosen: readonly AutopilotCertificate[]): AutopilotCertificate[] {
  if (!app.multipleCertificates) return chosen.slice(0, 1);
  const known = new Set(app.certificates.map((certificate) => certificate.fingerprint));
  return [...app.certificates, ...chosen.filter((certificate) => !known.has(certificate.fingerprint))];
}

export function withRemoved(app: Pick<AutopilotApp, 'certificates'>, fingerprint: string): AutopilotCertificate[] {
  return app.certificates.filter((certificate) => certificate.fingerprint !== fingerprint);
}
