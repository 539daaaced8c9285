import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { createCertificateService } from '../certificates/service.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'set-folder-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const settingsFile = () => join(root, 'agente', 'certificates.json');
const context = () =>
  fakeContext({
    certificates: createCertificateService({ platform: 'aix', settingsFile: settingsFile(), box: keyFileSecretBox(join(root, 'agente', 'secret.key')), nssDatabase: 'sql:/nowhere' }),
  });

describe('SetCertificateFolder', () => {
  it('chooses a folder, and forgets it with null', async () => {
    const ctx = context();
    await expect(dispatch('SetCertificateFolder', { folder: root }, ctx)).resolves.toEqual({ ok: true, data: { folder: root } });
    await expect(dispatch('GetCertificatesList', {}, ctx)).resolves.toMatchObject({ ok: true, data: { folder: root } });
    await expect(dispatch('SetCertificateFolder', { folder: null }, ctx)).resolves.toEqual({ ok: true, data: { folder: null } });
    await expect(dispatch('GetCertificatesList', {}, ctx)).resolves.toMatchObject({ ok: true, data: { folder: null } });
  });

  it('refuses a folder that is not there or not a full path, in Spanish, and keeps the one in use', async () => {
    const ctx = context();
    await dispatch('SetCertificateFolder', { folder: root }, ctx);
    await expect(dispatch('SetCertificateFolder', { folder: join(root, 'no-existe') }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: `No existe la carpeta ${join(root, 'no-existe')}.` },
    });
    await expect(dispatch('SetCertificateFolder', { folder: 'certificados' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS', message: expect.stringContaining('ruta completa') } });
    await expect(dispatch('SetCertificateFolder', { folder: '' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    await expect(dispatch('SetCertificateFolder', {}, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(JSON.parse(await readFile(settingsFile(), 'utf8'))).toMatchObject({ folder: root });
  });
});
