/**
 * Starts the RED Online stand-in on its own, for e2e runs and manual tries, and prints one JSON line:
 *
 *   { url, atr01Url, caPem, clientCas, alwaysInAltaNaf, testCertificate? }
 *
 *   url              https://127.0.0.1:<port>: the registrar's redOnlineUrl
 *   atr01Url         ATR01's address on it
 *   caPem            the CA of the stand-in's own HTTPS certificate (CN 'localhost', no SAN: browsers need
 *                    ignoreHTTPSErrors)
 *   clientCas        the subjects of the CAs whose client certificates it accepts
 *   alwaysInAltaNaf  the NAF it always refuses as already in alta (a sure fatal #DIL answer)
 *   testCertificate  without --ca only: a persona física certificate of this process's test CA (the CAs are
 *                    made per process), as a PKCS#12 file: { pfxPath, passphrase, nif, fingerprint }
 *
 * Usage: node --import tsx standins/red-online/serve.ts [--ca <pem file>]... [--port <n>] [--in-alta <naf>]...
 *   --ca       PEM file(s) with the CAs of the certificates you will file with; without it, the test CAs
 *              of main/certificates/testing ('AC FNMT Usuarios', 'AC Representación').
 *   --in-alta  more NAFs (12 digits) to treat as already in alta.
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPkcs12, createTestCertificate, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { portalOptions, serverAuthority } from '../portal/test-certificates.ts';
import { startStandinRedOnline } from './red-online.ts';
import { NAF_ALWAYS_IN_ALTA } from './rules.ts';

function fail(message: string): never {
  process.stderr.write(`red-online/serve.ts: ${message}\n`);
  process.exit(1);
}

function certificatesIn(file: string): string[] {
  const pems = readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) fail(`${file} has no PEM certificate`);
  return pems.map((pem) => `${pem}\n`);
}

const { values } = parseArgs({ options: { ca: { type: 'string', multiple: true }, port: { type: 'string' }, 'in-alta': { type: 'string', multiple: true } } });
const options = portalOptions();
if ((values.ca ?? []).length > 0) options.caCertificates = (values.ca ?? []).flatMap(certificatesIn);
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port ${values.port} is not a port number`);
const inAlta = values['in-alta'] ?? [];
for (const naf of inAlta) if (!/^\d{12}$/.test(naf)) fail(`--in-alta ${naf} is not a 12-digit NAF`);

const red = await startStandinRedOnline({ ...options, port, alreadyInAlta: inAlta });

let testCertificate: Record<string, string> | undefined;
if ((values.ca ?? []).length === 0) {
  const certificate = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
  const passphrase = 'clave-de-prueba';
  const pfxPath = join(mkdtempSync(join(tmpdir(), 'red-online-certificate-')), 'RODRIGUEZ GARCIA ELENA.p12');
  writeFileSync(pfxPath, createPkcs12(certificate, passphrase, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));
  testCertificate = { pfxPath, passphrase, nif: '78816596N', fingerprint: certificate.fingerprint };
}
process.stdout.write(
  `${JSON.stringify({
    url: red.url,
    atr01Url: red.atr01Url,
    caPem: serverAuthority().pem,
    clientCas: options.caCertificates.map((pem) => new X509Certificate(pem).subject.replace(/\n/g, ', ')),
    alwaysInAltaNaf: NAF_ALWAYS_IN_ALTA,
    ...(testCertificate && { testCertificate }),
  })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void red.close().finally(() => process.exit(0));
  });
}
