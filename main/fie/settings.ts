import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readDesktopSettings } from '../settings/desktop-settings.ts';

/** Where the FIE fetch and the A3 sync find their systems on this PC. */
export interface FieDesktopSettings {
  /** SILTRA's received-files folder; null when none is set (the folder is then not searched). */
  siltraFolder: string | null;
  /** FIER's address; null: FIER is not asked. */
  fierUrl: string | null;
  /** Extra CAs FIER's server certificate is checked against (the stand-in's); the system's otherwise. */
  fierCa: string[] | undefined;
  a3ImportDir: string;
  a3AnswerTimeoutMs: number;
}

/**
 * SILTRA's default install keeps the INSS files (FIE/FDI) under RED\INSS (external-systems §3; the exact
 * subfolder is not confirmed, hence the setting).
 */
export const SILTRA_DEFAULT_FOLDER_WINDOWS = 'C:\\SILTRA\\RED\\INSS';
/**
 * The FIER stand-in (standins/fier/serve.ts) in development and tests. The real FIER lives in Sistema
 * RED Online; its address for this kind of client is not documented publicly, so production sets FIER_URL.
 */
export const FIER_STANDIN_URL = 'https://localhost:8443';
export const A3_ANSWER_TIMEOUT_MS = 120_000;

/**
 * The settings file's choices, with env overrides for support and tests: SILTRA_FOLDER, FIER_URL,
 * FIER_CA_FILE (PEM), A3_IMPORT_DIR, A3_ANSWER_TIMEOUT_MS.
 */
export async function readFieSettings(dataFolder: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<FieDesktopSettings> {
  const saved = await readDesktopSettings(join(dataFolder, 'settings.json'));
  const timeout = Number(env.A3_ANSWER_TIMEOUT_MS);
  let fierCa: string[] | undefined;
  if (env.FIER_CA_FILE) {
    const pem = await readFile(env.FIER_CA_FILE, 'utf8').catch(() => {
      throw new Error(`No se puede leer FIER_CA_FILE «${env.FIER_CA_FILE}».`);
    });
    fierCa = [pem];
  }
  return {
    siltraFolder: env.SILTRA_FOLDER || saved.siltraFolder || (platform === 'win32' ? SILTRA_DEFAULT_FOLDER_WINDOWS : null),
    fierUrl: env.FIER_URL || saved.fierUrl || (env.NODE_ENV === 'production' ? null : FIER_STANDIN_URL),
    fierCa,
    a3ImportDir: env.A3_IMPORT_DIR || saved.a3ImportDir || join(dataFolder, 'a3-importacion'),
    a3AnswerTimeoutMs: Number.isInteger(timeout) && timeout > 0 ? timeout : A3_ANSWER_TIMEOUT_MS,
  };
}
