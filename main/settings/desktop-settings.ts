import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** The servers a desktop app can load the renderer from (spec §7: local, dev, test, prod). */
export const serverPresets = {
  local: 'http://localhost:8081',
  dev: 'https://dev.autoasesor.es',
  test: 'https://test.autoasesor.es',
  prod: 'https://app.autoasesor.es',
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * The window loads its renderer (and hands it the bridge) from this server, so it must be https:
 * over plain http anyone on the network could serve their own page. Plain http is accepted only for
 * this machine (a local server during development).
 */
export function isAllowedServerUrl(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname));
}

export const SERVER_URL_RULE = 'Usa una dirección https:// (http:// solo para este equipo: localhost o 127.0.0.1).';

export class ServerUrlError extends Error {}

/** Returns the URL if it is allowed, else a ServerUrlError with a Spanish message naming where it came from. */
export function checkServerUrl(raw: string, source: string): string {
  if (!isAllowedServerUrl(raw)) throw new ServerUrlError(`La dirección del servidor de ${source} no es válida: «${raw}». ${SERVER_URL_RULE}`);
  return raw;
}

const settingsSchema = z.object({
  server: z.enum(['local', 'dev', 'test', 'prod', 'custom']).default('local'),
  // Only web servers: a javascript: or file: URL must never become the window's page, nor plain http elsewhere.
  customServerUrl: z.string().refine(isAllowedServerUrl, `La dirección del servidor no es válida. ${SERVER_URL_RULE}`).optional(),
  // The FIE fetch and the A3 sync (main/fie/settings.ts reads them with their defaults and env overrides).
  /** SILTRA's received-files folder (its INSS files). */
  siltraFolder: z.string().min(1).max(1000).optional(),
  /** FIER's https address (FIER_URL). */
  fierUrl: z.string().regex(/^https:\/\/[^\s/]+\/?$/, 'La dirección de FIER debe ser https://').optional(),
  /** The folder A3's importer watches (A3_IMPORT_DIR). */
  a3ImportDir: z.string().min(1).max(1000).optional(),
  // The altas' registration in Sistema RED (main/altas/settings.ts reads them with their env overrides).
  /** RED Online's https address (RED_ONLINE_URL). */
  redOnlineUrl: z.string().regex(/^https:\/\/[^\s/]+\/?$/, 'La dirección de RED Online debe ser https://').optional(),
  /** SILTRA's install folder: AFI remittances go in its RED/VIPTC2/AFI (SILTRA_INSTALL_FOLDER). */
  siltraInstallFolder: z.string().min(1).max(1000).optional(),
  /** The firm's clave de autorización RED, 8 digits (RED_AUTHORIZATION_KEY): an AFI remittance carries it. */
  redAuthorizationKey: z.string().regex(/^\d{8}$/, 'La autorización RED son 8 dígitos').optional(),
  // DEHÚ's LEMA services (main/dehu/settings.ts reads them with their env overrides).
  /** LEMA's https address (DEHU_LEMA_URL). */
  dehuLemaUrl: z.string().regex(/^https:\/\/\S+$/, 'La dirección de LEMA debe ser https://').optional(),
  /** LocalizaRealizadas' https address (DEHU_REALIZADAS_URL). */
  dehuRealizadasUrl: z.string().regex(/^https:\/\/\S+$/, 'La dirección de LocalizaRealizadas debe ser https://').optional(),
});
export type DesktopSettings = z.infer<typeof settingsSchema>;

export async function readDesktopSettings(file: string): Promise<DesktopSettings> {
  try {
    return settingsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing or damaged settings fall back to the defaults rather than leaving the app unusable.
    return settingsSchema.parse({});
  }
}

export async function writeDesktopSettings(file: string, settings: DesktopSettings): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(settingsSchema.parse(settings), null, 2));
}

/**
 * AUTOASESOR_SERVER_URL wins over the saved choice (useful for support and testing). Throws a
 * ServerUrlError when it is not https (or http to this machine): the app must not start on it.
 */
export function serverUrlFor(settings: DesktopSettings, env: NodeJS.ProcessEnv = process.env): string {
  if (env.AUTOASESOR_SERVER_URL) return checkServerUrl(env.AUTOASESOR_SERVER_URL, 'AUTOASESOR_SERVER_URL');
  if (settings.server === 'custom' && settings.customServerUrl) return checkServerUrl(settings.customServerUrl, 'la configuración');
  return settings.server === 'custom' ? serverPresets.local : serverPresets[settings.server];
}
