/**
 * Starts the DEHÚ (LEMA) stand-in on its own for manual tries, and prints one JSON line:
 *
 *   { url, env: { DEHU_LEMA_URL, DEHU_REALIZADAS_URL, DEHU_CA_FILE }, testCertificates: [{ pfxPath, passphrase, nif, fingerprint }] }
 *
 * The mailboxes hold the sample envíos (test-certificates.ts) of the e2e certificates' holders:
 * ELENA RODRIGUEZ GARCIA (78816596N) and ASESORIA EJEMPLO SL (B12345674, represented by PABLO MARTIN
 * SANZ). Point the desktop at it with the printed env, and import a test certificate (.p12) in the
 * .p12 folder or the OS store.
 *
 * Usage: node --import tsx standins/dehu/serve.ts [--port <n>] [--success-code 000|200]   (default 8445, DEHU_STANDIN_ORIGIN in main/dehu/settings.ts)
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPkcs12, createTestCertificate, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { serverAuthority } from '../portal/test-certificates.ts';
import { startStandinDehu } from './dehu.ts';
import { dehuOptions } from './test-certificates.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'success-code': { type: 'string' } } });
const port = values.port === undefined ? 8445 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`serve.ts: --port ${values.port} is not a port number\n`);
  process.exit(1);
}
const successCode = values['success-code'] ?? '000';
if (successCode !== '000' && successCode !== '200') {
  process.stderr.write(`serve.ts: --success-code must be 000 or 200\n`);
  process.exit(1);
}
const dehu = await startStandinDehu({ ...dehuOptions(), successCode, port });

const folder = mkdtempSync(join(tmpdir(), 'dehu-standin-'));
const caFile = join(folder, 'dehu-ca.pem');
writeFileSync(caFile, serverAuthority().pem);
const passphrase = 'clave-de-prueba';
const holders = [
  { file: 'RODRIGUEZ GARCIA ELENA.p12', nif: '78816596N', certificate: createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' }), authority: 'AC FNMT Usuarios' },
  { file: 'MARTIN SANZ PABLO (R B12345674).p12', nif: 'B12345674', certificate: createTestCertificate({ kind: 'representative', givenName: 'PABLO', surnames: 'MARTIN SANZ', nif: '12345678Z', cif: 'B12345674', keyType: 'ec' }), authority: 'AC Representación' },
];
const testCertificates = holders.map(({ file, nif, certificate, authority }) => {
  const pfxPath = join(folder, file);
  writeFileSync(pfxPath, createPkcs12(certificate, passphrase, { extraCertificates: [testAuthority(authority)] }));
  return { pfxPath, passphrase, nif, fingerprint: certificate.fingerprint };
});

const url = dehu.url.replace('127.0.0.1', 'localhost');
process.stdout.write(`${JSON.stringify({ url, env: { DEHU_LEMA_URL: `${url}/ws/v2/lema`, DEHU_REALIZADAS_URL: `${url}/ws/v1/realizadas`, DEHU_CA_FILE: caFile }, testCertificates })}\n`);

const stop = () => void dehu.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
