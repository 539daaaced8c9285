import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { createCertificateService } from '../certificates/service.ts';
import { createNssDatabase, nssToolsAvailable, type NssDatabase } from '../certificates/testing/nss-database.ts';
import { createPkcs12, createTestCertificate, privateKeyPem } from '../certificates/testing/spanish-certificates.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const withNss = nssToolsAvailable() || Boolean(process.env.CI);
const person = createTestCertificate({ givenName: 'ANA', surnames: 'PEREZ MARTIN', nif: '12345678Z' });
const representative = createTestCertificate({ kind: 'representative', keyType: 'ec', nif: '00000000T', cif: 'B12345674' });
const locked = createTestCertificate({ kind: 'seal', keyType: 'ec', cif: 'Q2826000H' });
let root: string;
let folder: string;
let nss: NssDatabase | null = null;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'get-certificates-'));
  folder = join(root, 'certificados');
  await mkdir(folder);
  await writeFile(join(folder, 'ana.p12'), createPkcs12(person, ''));
  await writeFile(join(folder, 'sello.p12'), createPkcs12(locked, 'Clave-Sello'));
  if (withNss) {
    nss = await createNssDatabase(root);
    await nss.importWithKey(representative, 'Representante');
  }
}, 30_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function certificateContext() {
  const certificates = createCertificateService({
    platform: 'linux',
    settingsFile: join(root, 'agente', 'certificates.json'),
    box: keyFileSecretBox(join(root, 'agente', 'secret.key')),
    nssDatabase: nss?.database ?? `sql:${join(root, 'sin-nss')}`,
  });
  return fakeContext({ certificates });
}

describe('GetCertificatesList', () => {
  it('lists the store and the folder, says what it could not read, and when', async () => {
    const ctx = certificateContext();
    await dispatch('SetCertificateFolder', { folder }, ctx);
    const envelope = await dispatch('GetCertificatesList', {}, ctx);
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        folder,
        readAt: '2026-11-23T08:00:05.000Z',
        problems: [
          // Without NSS's tools no database was made, and the missing one is said first.
          ...(withNss ? [] : [{ code: 'STORE_UNAVAILABLE', store: 'nss' }]),
          { code: 'PASSWORD_REQUIRED', store: 'pkcs12', source: 'sello.p12' },
        ],
      },
    });
    const data = envelope.ok ? (envelope.data as { certificates: Array<{ fingerprint: string; store: string }> }) : null;
    const expected = withNss ? [person, representative] : [person];
    expect(data?.certificates.map((certificate) => certificate.fingerprint).sort()).toEqual(expected.map((certificate) => certificate.fingerprint).sort());
  });

  it('never sends a private key or a password', async () => {
    const ctx = certificateContext();
    await dispatch('SetCertificateFolder', { folder }, ctx);
    await dispatch('UnlockCertificateFile', { file: 'sello.p12', password: 'Clave-Sello' }, ctx);
    const envelope = await dispatch('GetCertificatesList', {}, ctx);
    expect(envelope.ok && (envelope.data as { certificates: unknown[] }).certificates).toHaveLength(withNss ? 3 : 2);
    const json = JSON.stringify(envelope);
    expect(json).not.toMatch(/PRIVATE KEY|BEGIN|Clave-Sello/);
    for (const certificate of [person, representative, locked]) {
      const keyLines = privateKeyPem(certificate).split('\n').slice(1, -2);
      for (const line of keyLines) expect(json).not.toContain(line);
      const keyHex = certificate.keyPair.privateKey.export({ type: 'pkcs8', format: 'der' }).subarray(-32).toString('hex');
      expect(json).not.toContain(keyHex);
    }
  });

  it('refuses arguments it does not take', async () => {
    await expect(dispatch('GetCertificatesList', { folder }, certificateContext())).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });

  it('answers an empty list with the reason when there is no store and no folder', async () => {
    const ctx = fakeContext({
      certificates: createCertificateService({
        platform: 'linux',
        settingsFile: join(root, 'vacio', 'certificates.json'),
        box: keyFileSecretBox(join(root, 'vacio', 'secret.key')),
        nssDatabase: `sql:${join(root, 'sin-nss')}`,
      }),
    });
    await expect(dispatch('GetCertificatesList', {}, ctx)).resolves.toEqual({
      ok: true,
      data: {
        certificates: [],
        problems: [{ code: 'STORE_UNAVAILABLE', store: 'nss', source: 'Almacén NSS', message: expect.stringContaining('No hay almacén de certificados NSS') }],
        folder: null,
        readAt: '2026-11-23T08:00:05.000Z',
      },
    });
  });
});
