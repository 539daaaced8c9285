/**
 * serve.ts as e2e and a person start it: a separate process, its JSON line read from stdout, and HTTPS
 * requests with client certificates from the CAs it was given (or the certificate it wrote).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestCertificate, privateKeyPem, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { SERVER_NAME } from './test-certificates.ts';

interface Started {
  url: string;
  caPem: string;
  clientCas: string[];
  robotSettings: Record<string, { baseUrl: string; ignoreHTTPSErrors: boolean }>;
  testCertificate?: { pfxPath: string; passphrase: string; nif: string; fingerprint: string };
}

const children: ChildProcess[] = [];
const folder = mkdtempSync(join(tmpdir(), 'portal-serve-'));
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function serve(args: string[]): Promise<{ child: ChildProcess; started: Started }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./serve.ts', import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve.ts exited with ${code} before printing: ${errors.trim()}`)));
  });
  return { child, started: JSON.parse(first) as Started };
}

type Credentials = { cert: string; key: string } | { pfx: Buffer; passphrase: string };

/** GET /acceso with a client certificate, trusting the portal's own CA. */
function signIn(started: Started, credentials: Credentials): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const get = request(`${started.url}/acceso`, { ca: started.caPem, servername: SERVER_NAME, ...credentials }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    get.on('error', reject).end();
  });
}

describe('standins/portal/serve.ts', () => {
  it('with --ca files, accepts the certificates those CAs issued (another process\'s) and refuses others', async () => {
    const caFile = join(folder, 'cas.pem');
    writeFileSync(caFile, testAuthority('AC FNMT Usuarios').pem + testAuthority('AC Representación').pem);
    const { child, started } = await serve(['--ca', caFile]);

    expect(started.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(started.clientCas).toEqual(['C=ES, O=FNMT-RCM, OU=Ceres, CN=AC FNMT Usuarios', 'C=ES, O=FNMT-RCM, OU=Ceres, CN=AC Representación']);
    expect(started.robotSettings).toEqual({ 'descargar-justificantes': { baseUrl: started.url, ignoreHTTPSErrors: true } });
    expect(started.testCertificate).toBeUndefined();

    const holder = createTestCertificate({ nif: '12345678Z', givenName: 'PABLO', surnames: 'MARTIN SANZ', keyType: 'ec' });
    const accepted = await signIn(started, { cert: holder.pem, key: privateKeyPem(holder) });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toContain('<span data-testid="nif-titular">12345678Z</span>');

    const stranger = createTestCertificate({ keyType: 'ec', issuer: testAuthority('AC Ajena') });
    const refused = await signIn(started, { cert: stranger.pem, key: privateKeyPem(stranger) });
    expect(refused.status).toBe(403);

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  }, 30_000);

  it('without --ca, writes a test certificate of its own CA that logs in', async () => {
    const { started } = await serve([]);
    const written = started.testCertificate;
    expect(written).toMatchObject({ nif: '78816596N', passphrase: 'clave-de-prueba' });

    const response = await signIn(started, { pfx: readFileSync(written!.pfxPath), passphrase: written!.passphrase });
    expect(response.status).toBe(200);
    expect(response.body).toContain('Bienvenido/a, RODRIGUEZ GARCIA ELENA - 78816596N');
    rmSync(join(written!.pfxPath, '..'), { recursive: true, force: true });
  }, 30_000);

  it('a --ca file without certificates stops it with a clear error', async () => {
    const empty = join(folder, 'empty.pem');
    writeFileSync(empty, 'nothing here\n');
    await expect(serve(['--ca', empty])).rejects.toThrow(`serve.ts exited with 1 before printing: serve.ts: ${empty} has no PEM certificate`);
  }, 30_000);
});
