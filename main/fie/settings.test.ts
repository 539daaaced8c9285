import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDesktopSettings } from '../settings/desktop-settings.ts';
import { A3_ANSWER_TIMEOUT_MS, FIER_STANDIN_URL, readFieSettings, SILTRA_DEFAULT_FOLDER_WINDOWS } from './settings.ts';

const folders: string[] = [];
afterEach(() => Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));
async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'aa-fie-settings-'));
  folders.push(folder);
  return folder;
}

describe('FIE settings', () => {
  it('defaults: SILTRA’s INSS folder on Windows, the FIER stand-in in development, A3’s folder in the app’s own', async () => {
    const folder = await dataFolder();
    expect(await readFieSettings(folder, {}, 'win32')).toEqual({
      siltraFolder: SILTRA_DEFAULT_FOLDER_WINDOWS,
      fierUrl: FIER_STANDIN_URL,
      fierCa: undefined,
      a3ImportDir: join(folder, 'a3-importacion'),
      a3AnswerTimeoutMs: A3_ANSWER_TIMEOUT_MS,
    });
    // Elsewhere SILTRA has no default folder, and a production build never asks the stand-in.
    expect(await readFieSettings(folder, { NODE_ENV: 'production' }, 'linux')).toMatchObject({ siltraFolder: null, fierUrl: null });
  });

  it('takes the saved choices, and the environment over them', async () => {
    const folder = await dataFolder();
    await writeDesktopSettings(join(folder, 'settings.json'), { server: 'local', siltraFolder: 'D:\\SILTRA\\RED\\INSS', fierUrl: 'https://fier.asesoria.example', a3ImportDir: 'E:\\A3\\importar' });
    expect(await readFieSettings(folder, {}, 'win32')).toMatchObject({ siltraFolder: 'D:\\SILTRA\\RED\\INSS', fierUrl: 'https://fier.asesoria.example', a3ImportDir: 'E:\\A3\\importar' });
    const ca = join(folder, 'ca.pem');
    await writeFile(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(await readFieSettings(folder, { SILTRA_FOLDER: '/srv/siltra', FIER_URL: 'https://localhost:9443', FIER_CA_FILE: ca, A3_IMPORT_DIR: '/srv/a3', A3_ANSWER_TIMEOUT_MS: '5000' }, 'win32')).toEqual({
      siltraFolder: '/srv/siltra',
      fierUrl: 'https://localhost:9443',
      fierCa: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'],
      a3ImportDir: '/srv/a3',
      a3AnswerTimeoutMs: 5000,
    });
  });

  it('refuses a FIER address that is not https, and says which CA file it cannot read', async () => {
    const folder = await dataFolder();
    await expect(writeDesktopSettings(join(folder, 'settings.json'), { server: 'local', fierUrl: 'http://fier.example' })).rejects.toThrow('La dirección de FIER debe ser https://');
    await expect(readFieSettings(folder, { FIER_CA_FILE: join(folder, 'no-existe.pem') })).rejects.toThrow(`No se puede leer FIER_CA_FILE «${join(folder, 'no-existe.pem')}».`);
  });
});
