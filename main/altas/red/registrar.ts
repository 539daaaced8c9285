/**
 * RedRegistrar (main/altas/types.ts) of this PC: altas into Sistema RED Online's ATR01 in Chromium with the
 * chosen certificate (playwright-core clientCertificates, as the desktop robots do: see
 * main/robots/sdk/browser.ts), or one AFI remittance for SILTRA. The real RED Online and the stand-in
 * (standins/red-online) differ only by redOnlineUrl.
 *
 * One browser for the batch, one page, each record in turn. A fatal #DIL code fails that record with
 * RED's text; an unexpected page or a timeout fails it with our message and the batch goes on. A refused
 * certificate fails every record left (none could pass). The signal stops between records: the records
 * not tried get no result and stay pending.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RedResult } from '#shared/api/altas.ts';
import { browserLaunchOptions } from '../../robots/sdk/browser.ts';
import type { RedRegistrar } from '../types.ts';
import { writeAfiRemittance } from './afi-writer.ts';
import { ATR01_PATH, CertificateRefused, UnexpectedRedPage, fileAltaInAtr01 } from './atr01.ts';

/** Sistema RED Online's host (research external-systems §2.1). */
export const RED_ONLINE_URL = 'https://w2.seg-social.es';
export const RED_STEP_TIMEOUT_MS = 30_000;

export interface RedRegistrarSettings {
  /** RED Online's origin: RED_ONLINE_URL, or a stand-in's. */
  redOnlineUrl: string;
  /** Only for a stand-in with a test server certificate. */
  ignoreHTTPSErrors?: boolean;
  /** SILTRA's install folder (the AFI goes in its RED/VIPTC2/AFI); null when not set. */
  siltraFolder: string | null;
  afi: {
    /** The firm's clave de autorización RED (8 digits) for the ETI and RZS segments. */
    authorizationKey: string;
    /** Marks remittances as tests (ETI 'P'). */
    test?: boolean;
  };
}

export interface RedRegistrarDeps {
  /** CertificateSource.clientCertificate: the certificate and its key, in memory. */
  certificates: { clientCertificate(fingerprint: string): Promise<{ pfx: Buffer; passphrase: string }> };
  settings: () => Promise<RedRegistrarSettings>;
  /** The installation's browser (chromiumPath); null: CHROMIUM_PATH or the platform's own (browserLaunchOptions). */
  chromiumPath: string | null;
  now: () => Date;
  /** Per page step; default RED_STEP_TIMEOUT_MS. */
  stepTimeoutMs?: number;
}

export const SILTRA_FOLDER_MISSING = 'No has elegido la carpeta de SILTRA: elígela en la configuración para escribir el fichero AFI.';

export function createRedRegistrar(deps: RedRegistrarDeps): RedRegistrar {
  return {
    async register(records, certificate, { log, signal }) {
      if (records.length === 0) return [];
      const settings = await deps.settings();
      if (!URL.canParse(settings.redOnlineUrl) || new URL(settings.redOnlineUrl).protocol !== 'https:') {
        throw new Error(`La dirección de RED Online no es válida: ${settings.redOnlineUrl}`);
      }
      const origin = new URL(settings.redOnlineUrl).origin;
      const certificateInMemory = await deps.certificates.clientCertificate(certificate).catch((error: unknown) => {
        throw new Error(`No se ha podido usar el certificado elegido: ${error instanceof Error ? error.message : String(error)}`);
      });

      log('info', `Abriendo el navegador para dar de alta ${records.length} trabajador(es) en RED Online`);
      const browser = await launch(deps);
      const results: RedResult[] = [];
      try {
        const pfx = Buffer.from(certificateInMemory.pfx);
        let context: BrowserContext;
        try {
          context = await browser.newContext({ clientCertificates: [{ origin, pfx, passphrase: certificateInMemory.passphrase }], ignoreHTTPSErrors: settings.ignoreHTTPSErrors === true });
        } finally {
          // Playwright made its TLS context from it; this copy of the key is no longer needed.
          pfx.fill(0);
        }
        let page = await openPage(context, deps);
        for (const [index, record] of records.entries()) {
          if (signal?.aborted) {
            log('warn', `Detenido: ${records.length - index} alta(s) sin enviar a RED`);
            break;
          }
          try {
            results.push(await fileAltaInAtr01(page, record, { log, atr01Url: `${origin}${ATR01_PATH}` }));
          } catch (error) {
            if (error instanceof CertificateRefused) {
              log('error', error.message);
              for (const left of records.slice(index)) results.push({ submissionId: left.submissionId, state: 'error', message: error.message });
              break;
            }
            const message = recordFailure(error);
            log('error', `${record.worker} (${record.company}): ${message}`);
            results.push({ submissionId: record.submissionId, state: 'error', message });
            // A page left half way (or crashed) is not reused for the next alta.
            await page.close().catch(() => undefined);
            page = await openPage(context, deps);
          }
        }
      } finally {
        await browser.close().catch(() => undefined);
      }
      const registered = results.filter((result) => result.state === 'registered').length;
      log('info', `RED Online: ${registered} alta(s) admitida(s), ${results.length - registered} con error`);
      return results;
    },

    async writeAfi(records, { log }) {
      const settings = await deps.settings();
      if (!settings.siltraFolder) throw new Error(SILTRA_FOLDER_MISSING);
      return writeAfiRemittance(records, {
        siltraFolder: settings.siltraFolder,
        authorizationKey: settings.afi.authorizationKey,
        test: settings.afi.test === true,
        now: deps.now,
        log,
      });
    },
  };
}

async function launch(deps: RedRegistrarDeps): Promise<Browser> {
  const options = browserLaunchOptions(process.platform, deps.chromiumPath, process.env);
  // playwright-core is loaded when a batch needs it: the hosts start without it.
  const { chromium } = await import('playwright-core');
  return chromium.launch(options).catch((error: unknown) => {
    throw new Error(`No se ha podido abrir el navegador: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  });
}

async function openPage(context: BrowserContext, deps: RedRegistrarDeps): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(deps.stepTimeoutMs ?? RED_STEP_TIMEOUT_MS);
  return page;
}

/** The Spanish message of an alta that did not reach RED's answer. */
function recordFailure(error: unknown): string {
  if (error instanceof UnexpectedRedPage) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return 'RED Online no ha respondido a tiempo; el alta no se ha enviado o no se ha confirmado: compruébalo en RED antes de repetirla.';
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return `No se ha podido completar el alta en RED Online: ${reason}`.slice(0, 1000);
}
