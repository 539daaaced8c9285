import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { A3_ANSWER_TIMEOUT_MS } from '../fie/settings.ts';
import { writeDesktopSettings } from '../settings/desktop-settings.ts';
import { RED_ONLINE_URL } from './red/registrar.ts';
import { readAltasSettings, redRegistrarSettings, SILTRA_INSTALL_DEFAULT_FOLDER_WINDOWS } from './settings.ts';

const folders: string[] = [];
afterEach(() => Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));
async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'aa-altas-settings-'));
  folders.push(folder);
  return folder;
}

describe('altas settings', () => {
  it('defaults: Sistema RED’s own RED Online, SILTRA’s folder on Windows only, no authorization, A3 as the FIE import has it', async () => {
    const folder = await dataFolder();
    expect(await readAltasSettings(folder, {}, 'win32')).toEqual({
      redOnlineUrl: RED_ONLINE_URL,
      redOnlineIgnoreHttpsErrors: false,
      siltraInstallFolder: SILTRA_INSTALL_DEFAULT_FOLDER_WINDOWS,
      redAuthorizationKey: null,
      afiTest: false,
      a3ImportDir: join(folder, 'a3-importacion'),
      a3AnswerTimeoutMs: A3_ANSWER_TIMEOUT_MS,
    });
    expect((await readAltasSettings(folder, {}, 'linux')).siltraInstallFolder).toBeNull();
  });

  it('takes the saved choices, the environment over them; refuses an authorization that is not 8 digits and the stand-in switches in production', async () => {
    const folder = await dataFolder();
    await writeDesktopSettings(join(folder, 'settings.json'), { server: 'local', redOnlineUrl: 'https://red.example', siltraInstallFolder: '/siltra', redAuthorizationKey: '12345678' });
    const saved = await readAltasSettings(folder, {}, 'linux');
    expect(saved).toMatchObject({ redOnlineUrl: 'https://red.example', siltraInstallFolder: '/siltra', redAuthorizationKey: '12345678' });
    expect(redRegistrarSettings(saved)).toEqual({ redOnlineUrl: 'https://red.example', ignoreHTTPSErrors: false, siltraFolder: '/siltra', afi: { authorizationKey: '12345678', test: false } });

    const env = { RED_ONLINE_URL: 'https://127.0.0.1:9443', RED_ONLINE_IGNORE_HTTPS_ERRORS: '1', RED_AFI_TEST: '1', SILTRA_INSTALL_FOLDER: '/otro', RED_AUTHORIZATION_KEY: '1234', A3_IMPORT_DIR: '/a3' };
    expect(await readAltasSettings(folder, env, 'linux')).toMatchObject({
      redOnlineUrl: 'https://127.0.0.1:9443',
      redOnlineIgnoreHttpsErrors: true,
      afiTest: true,
      siltraInstallFolder: '/otro',
      redAuthorizationKey: null,
      a3ImportDir: '/a3',
    });
    expect(await readAltasSettings(folder, { ...env, NODE_ENV: 'production' }, 'linux')).toMatchObject({ redOnlineIgnoreHttpsErrors: false, afiTest: false });
  });
});
