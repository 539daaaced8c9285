import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDesktopSettings } from '../settings/desktop-settings.ts';
import { DEHU_LEMA_PRODUCTION_URL, DEHU_REALIZADAS_PRODUCTION_URL, DEHU_STANDIN_ORIGIN, readDehuSettings } from './settings.ts';

const folders: string[] = [];
afterEach(() => Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));
async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'aa-dehu-settings-'));
  folders.push(folder);
  return folder;
}

describe('DEHÚ settings', () => {
  it('production asks the real LEMA; development the local stand-in', async () => {
    const folder = await dataFolder();
    expect(await readDehuSettings(folder, { NODE_ENV: 'production' })).toEqual({
      lemaUrl: DEHU_LEMA_PRODUCTION_URL,
      realizadasUrl: DEHU_REALIZADAS_PRODUCTION_URL,
      ca: undefined,
      successCodes: undefined,
      servername: undefined,
    });
    expect(DEHU_LEMA_PRODUCTION_URL).toBe('https://gd-dehuws.redsara.es/ws/v2/lema');
    expect(DEHU_REALIZADAS_PRODUCTION_URL).toBe('https://gd-dehuws.redsara.es/ws/v1/realizadas');
    expect(await readDehuSettings(folder, {})).toMatchObject({ lemaUrl: `${DEHU_STANDIN_ORIGIN}/ws/v2/lema`, realizadasUrl: `${DEHU_STANDIN_ORIGIN}/ws/v1/realizadas` });
  });

  it('takes the saved addresses, and the environment over them (CA file, success codes, server name)', async () => {
    const folder = await dataFolder();
    await writeDesktopSettings(join(folder, 'settings.json'), { server: 'local', dehuLemaUrl: 'https://lema.example/ws/v2/lema', dehuRealizadasUrl: 'https://lema.example/ws/v1/realizadas' });
    expect(await readDehuSettings(folder, { NODE_ENV: 'production' })).toMatchObject({ lemaUrl: 'https://lema.example/ws/v2/lema', realizadasUrl: 'https://lema.example/ws/v1/realizadas' });
    const ca = join(folder, 'ca.pem');
    await writeFile(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const env = { DEHU_LEMA_URL: 'https://localhost:9999/ws/v2/lema', DEHU_REALIZADAS_URL: 'https://localhost:9999/ws/v1/realizadas', DEHU_CA_FILE: ca, DEHU_SUCCESS_CODES: '000, 200,', DEHU_SERVERNAME: 'localhost' };
    expect(await readDehuSettings(folder, env)).toEqual({
      lemaUrl: 'https://localhost:9999/ws/v2/lema',
      realizadasUrl: 'https://localhost:9999/ws/v1/realizadas',
      ca: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'],
      successCodes: ['000', '200'],
      servername: 'localhost',
    });
  });

  it('a CA file that cannot be read is said in Spanish', async () => {
    await expect(readDehuSettings(await dataFolder(), { DEHU_CA_FILE: '/no/existe.pem' })).rejects.toThrow('No se puede leer DEHU_CA_FILE «/no/existe.pem».');
  });
});
