import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { createCertificateService } from '../certificates/service.ts';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const seal = createTestCertificate({ kind: 'seal', keyType: 'ec', cif: 'Q2826000H' });
let root: string;
let folder: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'unlock-'));
  folder = join(root, 'certificados');
  await mkdir(folder);
  await writeFile(join(folder, 'sello.p12'), createPkcs12(seal, 'Clave-Sello'));
  await writeFile(join(root, 'fuera.p12'), createPkcs12(seal, 'Clave-Sello'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function contextWithFolder() {
  const data = await mkdtemp(join(root, 'agente-'));
  const ctx = fakeContext({
    certificates: createCertificateService({ platform: 'aix', settingsFile: join(data, 'certificates.json'), box: keyFileSecretBox(join(data, 'secret.key')), nssDatabase: 'sql:/nowhere' }),
  });
  await dispatch('SetCertificateFolder', { folder }, ctx);
  return { ctx, settingsFile: join(data, 'certificates.json') };
}

describe('UnlockCertificateFile', () => {
  it('opens a locked file with its password, keeps it sealed, and the file lists from then on', async () => {
    const { ctx, settingsFile } = await contextWithFolder();
    const envelope = await dispatch('UnlockCertificateFile', { file: 'sello.p12', password: 'Clave-Sello' }, ctx);
    expect(envelope).toEqual({ ok: true, data: { file: 'sello.p12', certificates: 1 } });
    expect(await readFile(settingsFile, 'utf8')).not.toContain('Clave-Sello');
    await expect(dispatch('GetCertificatesList', {}, ctx)).resolves.toMatchObject({ ok: true, data: { certificates: [{ fingerprint: seal.fingerprint, location: 'sello.p12' }], problems: [] } });
  });

  it('says the password is wrong, without echoing it, and keeps nothing', async () => {
    const { ctx, settingsFile } = await contextWithFolder();
    const before = await readFile(settingsFile, 'utf8');
    const envelope = await dispatch('UnlockCertificateFile', { file: 'sello.p12', password: 'clave-sello' }, ctx);
    expect(envelope).toEqual({ ok: false, error: { code: 'WRONG_PASSWORD', message: 'La contraseña no abre este certificado.' } });
    expect(await readFile(settingsFile, 'utf8')).toBe(before);
    await expect(dispatch('GetCertificatesList', {}, ctx)).resolves.toMatchObject({ ok: true, data: { problems: [{ code: 'PASSWORD_REQUIRED', source: 'sello.p12' }] } });
  });

  it.each(['../fuera.p12', '/tmp/fuera.p12', 'sub/sello.p12', 'sello.txt'])('refuses %j: only a .p12/.pfx name of the folder', async (file) => {
    const { ctx } = await contextWithFolder();
    await expect(dispatch('UnlockCertificateFile', { file, password: 'Clave-Sello' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS', message: expect.stringContaining('carpeta de certificados') } });
  });

  it('says when the file is not in the folder, and refuses arguments the contract does not allow', async () => {
    const { ctx } = await contextWithFolder();
    await expect(dispatch('UnlockCertificateFile', { file: 'otro.p12', password: 'x' }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No se encuentra el archivo otro.p12 en la carpeta de certificados.' },
    });
    await expect(dispatch('UnlockCertificateFile', { file: '', password: 'x' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    await expect(dispatch('UnlockCertificateFile', { file: 'sello.p12' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });
});
