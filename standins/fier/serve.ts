/**
 * Starts the FIER stand-in on its own for manual tries, and prints one JSON line:
 *
 *   { url, env: { FIER_URL, FIER_CA_FILE }, testCertificate: { pfxPath, passphrase, nif, fingerprint } }
 *
 * It serves one sample FIE4 file (3 entries) per day for the 14 days up to yesterday. Point the desktop
 * at it with the printed env (FIER_URL, and FIER_CA_FILE so it trusts the stand-in's test CA), and
 * import the test certificate (a persona física of the shared test 'AC FNMT Usuarios', which FIER trusts)
 * in the .p12 folder or the OS store.
 *
 * Usage: node --import tsx standins/fier/serve.ts [--port <n>]   (default 8443, FIER_URL's development default)
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPkcs12, createTestCertificate, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { portalOptions, serverAuthority } from '../portal/test-certificates.ts';
import { startStandinFier } from './fier.ts';
import { sampleFierDays } from './files.ts';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const port = values.port === undefined ? 8443 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`serve.ts: --port ${values.port} is not a port number\n`);
  process.exit(1);
}
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const fier = await startStandinFier({ ...portalOptions(), files: sampleFierDays(yesterday, 14), port });

const folder = mkdtempSync(join(tmpdir(), 'fier-standin-'));
const caFile = join(folder, 'fier-ca.pem');
writeFileSync(caFile, serverAuthority().pem);
const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const passphrase = 'clave-de-prueba';
const pfxPath = join(folder, 'RODRIGUEZ GARCIA ELENA.p12');
writeFileSync(pfxPath, createPkcs12(holder, passphrase, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));

const url = fier.url.replace('127.0.0.1', 'localhost');
process.stdout.write(`${JSON.stringify({ url, env: { FIER_URL: url, FIER_CA_FILE: caFile }, testCertificate: { pfxPath, passphrase, nif: '78816596N', fingerprint: holder.fingerprint } })}\n`);

const stop = () => void fier.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
