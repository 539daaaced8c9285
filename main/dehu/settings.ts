import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readDesktopSettings } from '../settings/desktop-settings.ts';

/** Where this PC reaches DEHÚ's LEMA services (external-systems §1.2), as LemaClientOptions takes them. */
export interface DehuDesktopSettings {
  lemaUrl: string;
  realizadasUrl: string;
  /** Extra CAs for LEMA's server certificate (the stand-in's test CA); the system's otherwise. */
  ca: string[] | undefined;
  /** codigoRespuesta values that mean success; undefined: the client's default ('000' and '200'). */
  successCodes: string[] | undefined;
  /** TLS server name when it differs from the URL's host (the stand-in's certificate is for 'localhost'). */
  servername: string | undefined;
}

/** The Gran Destinatario's production endpoints (LEMA v2 and LocalizaRealizadas v1). */
export const DEHU_LEMA_PRODUCTION_URL = 'https://gd-dehuws.redsara.es/ws/v2/lema';
export const DEHU_REALIZADAS_PRODUCTION_URL = 'https://gd-dehuws.redsara.es/ws/v1/realizadas';
/** The DEHÚ stand-in (standins/dehu/) in development and tests, like FIER's (main/fie/settings.ts). */
export const DEHU_STANDIN_ORIGIN = 'https://localhost:8445';

/**
 * The settings file's choices with env overrides for support and tests: DEHU_LEMA_URL,
 * DEHU_REALIZADAS_URL, DEHU_CA_FILE (PEM), DEHU_SUCCESS_CODES (comma list) and DEHU_SERVERNAME.
 * Production defaults to the real LEMA; anything else to the local stand-in.
 */
export async function readDehuSettings(dataFolder: string, env: NodeJS.ProcessEnv = process.env): Promise<DehuDesktopSettings> {
  const saved = await readDesktopSettings(join(dataFolder, 'settings.json'));
  const production = env.NODE_ENV === 'production';
  let ca: string[] | undefined;
  if (env.DEHU_CA_FILE) {
    const pem = await readFile(env.DEHU_CA_FILE, 'utf8').catch(() => {
      throw new Error(`No se puede leer DEHU_CA_FILE «${env.DEHU_CA_FILE}».`);
    });
    ca = [pem];
  }
  const codes = (env.DEHU_SUCCESS_CODES ?? '')
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  return {
    lemaUrl: env.DEHU_LEMA_URL || saved.dehuLemaUrl || (production ? DEHU_LEMA_PRODUCTION_URL : `${DEHU_STANDIN_ORIGIN}/ws/v2/lema`),
    realizadasUrl: env.DEHU_REALIZADAS_URL || saved.dehuRealizadasUrl || (production ? DEHU_REALIZADAS_PRODUCTION_URL : `${DEHU_STANDIN_ORIGIN}/ws/v1/realizadas`),
    ca,
    successCodes: codes.length > 0 ? codes : undefined,
    servername: env.DEHU_SERVERNAME || undefined,
  };
}
