/**
 * serve.ts as e2e starts it: a separate process, its JSON line read from stdout, then ATR01 over HTTPS with
 * the certificate it wrote (its CAs are its own), and refused without one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NAME } from '../portal/test-certificates.ts';
import { NAF_ALWAYS_IN_ALTA } from './rules.ts';

interface Started {
  url: string;
  atr01Url: string;
  caPem: string;
  clientCas: string[];
  alwaysInAltaNaf: string;
  testCertificate?: { pfxPath: string; passphrase: string; nif: string; fingerprint: string };
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function serve(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./serve.ts', import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve.ts exited with ${code} before printing: ${errors.trim()}`)));
  });
  return JSON.parse(first) as Started;
}

function get(started: Started, credentials: { pfx: Buffer; passphrase: string } | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(started.atr01Url, { ca: started.caPem, servername: SERVER_NAME, agent: false, ...credentials }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject).end();
  });
}

describe('standins/red-online/serve.ts', () => {
  it('prints where ATR01 is and a certificate it accepts; without a certificate it refuses', async () => {
    const started = await serve([]);
    expect(started.atr01Url).toBe(`${started.url}/Xhtml?JacadaApplicationName=SGIRED&TRANSACCION=ATR01&E=I&AP=AFIR`);
    expect(started.alwaysInAltaNaf).toBe(NAF_ALWAYS_IN_ALTA);
    expect(started.clientCas.some((subject) => subject.includes('CN=AC FNMT Usuarios'))).toBe(true);
    const { pfxPath, passphrase } = started.testCertificate!;
    const screen1 = await get(started, { pfx: readFileSync(pfxPath), passphrase });
    expect(screen1.status).toBe(200);
    expect(screen1.body).toContain('id="Sub2207401004"');
    const refused = await get(started, null);
    expect(refused.status).toBe(403);
  }, 30_000);

  it('refuses a --in-alta value that is not a NAF', async () => {
    await expect(serve(['--in-alta', '123'])).rejects.toThrow('--in-alta 123 is not a 12-digit NAF');
  }, 30_000);
});
