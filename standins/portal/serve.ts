/**
 * Starts the stand-in portal on its own, for e2e runs and manual tries, and prints one JSON line:
 *
 *   { url, caPem, clientCas, robotSettings, testCertificate? }
 *
 *   url             https://127.0.0.1:<port>
 *   caPem           the CA of the portal's own HTTPS certificate (CN 'localhost', no SAN: browsers still need
 *                   ignoreHTTPSErrors; Node clients trust it with `ca` and servername 'localhost')
 *   clientCas       the subjects of the CAs whose client certificates the portal accepts
 *   robotSettings   the AUTOASESOR_ROBOT_SETTINGS value that points the desktop robots at this portal
 *   testCertificate without --ca only: a persona física certificate of the generated test CA, as a PKCS#12
 *                   file to import in a browser or an NSS store ({ pfxPath, passphrase, nif, fingerprint })
 *
 * Usage: node --import tsx standins/portal/serve.ts [--ca <pem file>]... [--port <n>]
 *   --ca    PEM file(s) with the CAs that issued the certificates you will log in with (e.g. the ones the
 *           e2e NSS store's certificates come from: write testAuthority(...).pem of that process to a file).
 *           Without it, this process's own test CAs ('AC FNMT Usuarios', 'AC Representación') are used.
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPkcs12, createTestCertificate, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { startStandinPortal } from './portal.ts';
import { portalOptions, serverAuthority } from './test-certificates.ts';

const ROBOT_FLOW_ID = 'descargar-justificantes';

function certificatesIn(file: string): string[] {
  const pems = readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) fail(`${file} has no PEM certificate`);
  return pems.map((pem) => `${pem}\n`);
}

function fail(message: string): never {
  process.stderr.write(`serve.ts: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({ options: { ca: { type: 'string', multiple: true }, port: { type: 'string' } } });
const caFiles = values.ca ?? [];
const options = portalOptions();
const testCertificate =
  caFiles.length === 0 ? createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' }) : null;
if (caFiles.length > 0) options.caCertificates = caFiles.flatMap(certificatesIn);

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port ${values.port} is not a port number`);
const portal = await startStandinPortal({ ...options, port });

let written: Record<string, string> | undefined;
if (testCertificate !== null) {
  const passphrase = 'clave-de-prueba';
  const pfxPath = join(mkdtempSync(join(tmpdir(), 'portal-certificate-')), 'RODRIGUEZ GARCIA ELENA.p12');
  writeFileSync(pfxPath, createPkcs12(testCertificate, passphrase, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));
  written = { pfxPath, passphrase, nif: '78816596N', fingerprint: testCertificate.fingerprint };
}

process.stdout.write(
  `${JSON.stringify({
    url: portal.url,
    caPem: serverAuthority().pem,
    clientCas: options.caCertificates.map((pem) => new X509Certificate(pem).subject.replace(/\n/g, ', ')),
    robotSettings: { [ROBOT_FLOW_ID]: { baseUrl: portal.url, ignoreHTTPSErrors: true } },
    ...(written && { testCertificate: written }),
  })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void portal.close().finally(() => process.exit(0));
  });
}
