import { join } from 'node:path';
import { readFieSettings } from '../fie/settings.ts';
import { readDesktopSettings } from '../settings/desktop-settings.ts';
import { RED_ONLINE_URL, type RedRegistrarSettings } from './red/registrar.ts';

/** Where the altas' registration (RED Online or an AFI for SILTRA) and their A3 import find their systems. */
export interface AltasDesktopSettings {
  /** RED Online's origin: Sistema RED's own (RED_ONLINE_URL of red/registrar.ts) unless a stand-in's is set. */
  redOnlineUrl: string;
  /** Only for the stand-in's test server certificate; an installed app never sets it. */
  redOnlineIgnoreHttpsErrors: boolean;
  /** SILTRA's install folder (the AFI goes in its RED/VIPTC2/AFI); null when none is set (the AFI channel refuses). */
  siltraInstallFolder: string | null;
  /** The firm's clave de autorización RED (8 digits), which an AFI remittance carries; null when not set. */
  redAuthorizationKey: string | null;
  /** Marks AFI remittances as tests (ETI 'P'): never in production. */
  afiTest: boolean;
  /** A3's import folder and answer wait: the FIE import's (main/fie/settings.ts). */
  a3ImportDir: string;
  a3AnswerTimeoutMs: number;
}

/** SILTRA's default install folder; remittances to send go under its RED\VIPTC2\AFI (external-systems §2.3). */
export const SILTRA_INSTALL_DEFAULT_FOLDER_WINDOWS = 'C:\\SILTRA';

/**
 * The settings file's choices, with env overrides for support and tests: RED_ONLINE_URL,
 * RED_ONLINE_IGNORE_HTTPS_ERRORS=1 and RED_AFI_TEST=1 (the stand-ins; ignored in production),
 * SILTRA_INSTALL_FOLDER, RED_AUTHORIZATION_KEY, and the FIE settings' A3_IMPORT_DIR and A3_ANSWER_TIMEOUT_MS.
 */
export async function readAltasSettings(dataFolder: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<AltasDesktopSettings> {
  const saved = await readDesktopSettings(join(dataFolder, 'settings.json'));
  const fie = await readFieSettings(dataFolder, env, platform);
  const testing = env.NODE_ENV !== 'production';
  const authorization = env.RED_AUTHORIZATION_KEY || saved.redAuthorizationKey || null;
  return {
    redOnlineUrl: env.RED_ONLINE_URL || saved.redOnlineUrl || RED_ONLINE_URL,
    redOnlineIgnoreHttpsErrors: testing && env.RED_ONLINE_IGNORE_HTTPS_ERRORS === '1',
    siltraInstallFolder: env.SILTRA_INSTALL_FOLDER || saved.siltraInstallFolder || (platform === 'win32' ? SILTRA_INSTALL_DEFAULT_FOLDER_WINDOWS : null),
    redAuthorizationKey: authorization !== null && /^\d{8}$/.test(authorization) ? authorization : null,
    afiTest: testing && env.RED_AFI_TEST === '1',
    a3ImportDir: fie.a3ImportDir,
    a3AnswerTimeoutMs: fie.a3AnswerTimeoutMs,
  };
}

/** What the registrar (red/registrar.ts) takes from these settings; the AFI's authorization is checked before it is asked. */
export function redRegistrarSettings(settings: AltasDesktopSettings): RedRegistrarSettings {
  return {
    redOnlineUrl: settings.redOnlineUrl,
    ignoreHTTPSErrors: settings.redOnlineIgnoreHttpsErrors,
    siltraFolder: settings.siltraInstallFolder,
    afi: { authorizationKey: settings.redAuthorizationKey ?? '', test: settings.afiTest },
  };
}
