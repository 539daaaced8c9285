import { createTestCertificate, type TestCertificate } from '../main/certificates/testing/spanish-certificates.ts';

const DAY = 86_400_000;

/**
 * The certificates installed in the e2e agent's NSS store: what the selector must list. One person
 * certificate expires in 20 days, so the expiry radar and the top-bar warning have something to show.
 */
export const E2E_CERTIFICATES: { certificate: TestCertificate; commonName: string; nif: string }[] = [
  {
    certificate: createTestCertificate({
      kind: 'person', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', nif: '78816596N', keyType: 'ec',
      notBefore: new Date(Date.now() - 700 * DAY), notAfter: new Date(Date.now() + 20 * DAY),
    }),
    commonName: 'RODRIGUEZ GARCIA ELENA - 78816596N',
    nif: '78816596N',
  },
  {
    certificate: createTestCertificate({ kind: 'representative', givenName: 'PABLO', surnames: 'MARTIN SANZ', nif: '12345678Z', cif: 'B12345674', keyType: 'ec' }),
    commonName: '12345678Z PABLO MARTIN SANZ (R: B12345674)',
    nif: 'B12345674',
  },
];
