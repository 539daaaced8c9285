/**
 * Test-only: the certificates the portal's tests (and later the robots' tests) start it with. The server
 * certificate names 'localhost' in its CN (the test builder writes no DNS SAN), so Node clients connect to
 * 127.0.0.1 with `servername: 'localhost'`; browsers are told to ignore HTTPS errors.
 */
import { OID, createTestCertificate, testAuthority, privateKeyPem, type TestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import type { StandinPortalOptions } from './portal.ts';

export const SERVER_NAME = 'localhost';

/** The CA that signs the portal's own HTTPS certificate (FNMT's name for its server CA). */
export function serverAuthority(): TestCertificate {
  return testAuthority('AC Componentes Informáticos');
}

/** Options that make the portal trust the shared test FNMT CAs (persona física and representación). */
export function portalOptions(): StandinPortalOptions {
  const serverCertificate = createTestCertificate({
    subject: [
      { oid: OID.country, value: 'ES' },
      { oid: OID.organization, value: 'SEDE DE PRUEBAS' },
      { oid: OID.commonName, value: SERVER_NAME },
    ],
    noSan: true,
    keyType: 'ec',
    extendedKeyUsage: [OID.serverAuth],
    issuer: serverAuthority(),
  });
  return {
    caCertificates: [testAuthority('AC FNMT Usuarios').pem, testAuthority('AC Representación').pem],
    serverKey: privateKeyPem(serverCertificate),
    serverCert: serverCertificate.pem,
  };
}
