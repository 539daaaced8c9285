/**
 * The robot's browser (DesktopRobotContext.openBrowser), in the run's child process: Chromium driven by
 * playwright-core, presenting the certificate chosen in one of the run's Certificate inputs to the
 * portal's origins (Playwright's clientCertificates; see main/certificates/client-certificate.ts for
 * which certificates that can use). The PKCS#12 comes from the parent process over IPC and stays in
 * memory; every browser of the run closes when it ends or is stopped.
 *
 * Which browser: the installation's chromiumPath, else CHROMIUM_PATH, else the platform's own:
 * Microsoft Edge on Windows (every Windows 10/11 has it, so nothing is downloaded or bundled), Google
 * Chrome on macOS (Playwright's 'chrome' channel: the advisor installs it), /usr/bin/chromium on Linux.
 */
import type { Browser, BrowserContext, BrowserContextOptions, LaunchOptions, Page } from 'playwright-core';
import type { ClientCertificate } from '../../certificates/client-certificate.ts';

/** The flags of docs/ARCHITECTURE.md: no GPU, no background traffic, no first-run screens. */
export const CHROMIUM_FLAGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] as const;

/**
 * How to launch the browser here. --no-sandbox only on Linux, where the agent may run as root (a
 * service) and containers lack the namespaces Chromium's sandbox needs; Edge and Chrome keep theirs.
 */
export function browserLaunchOptions(platform: NodeJS.Platform, chromiumPath: string | null, env: NodeJS.ProcessEnv): LaunchOptions {
  const linuxFlags = [...CHROMIUM_FLAGS, '--no-sandbox'];
  const executablePath = chromiumPath || env.CHROMIUM_PATH || null;
  if (executablePath !== null) return { executablePath, args: platform === 'linux' ? linuxFlags : [...CHROMIUM_FLAGS] };
  switch (platform) {
    case 'win32':
      return { channel: 'msedge', args: [...CHROMIUM_FLAGS] };
    case 'darwin':
      return { channel: 'chrome', args: [...CHROMIUM_FLAGS] };
    default:
      return { executablePath: '/usr/bin/chromium', args: linuxFlags };
  }
}

export interface RobotBrowsersOptions {
  launchOptions: LaunchOptions;
  /** The run's inputs: openBrowser's certificateInput names one of them. */
  inputs: Readonly<Record<string, unknown>>;
  /** settings.ignoreHTTPSErrors === true (stand-in portals with a test server certificate). */
  ignoreHTTPSErrors: boolean;
  /** Asks the parent for the PKCS#12 of a certificate on this PC. */
  clientCertificate(fingerprint: string): Promise<ClientCertificate>;
  /**
   * A browser a spare robot process launched ahead with the same launchOptions (no context yet): the
   * run adopts it instead of waiting for a launch. One that failed or has since gone is launched again.
   */
  launched?: Promise<Browser>;
}

const FINGERPRINT = /^[0-9a-f]{64}$/;

/** The browsers of one run: one Chromium, launched on the first openBrowser, one context per call. */
export class RobotBrowsers {
  private browser: Promise<Browser> | null = null;
  private readonly contexts: BrowserContext[] = [];
  private closed = false;

  constructor(private readonly options: RobotBrowsersOptions) {}

  /**
   * A fresh page in a context of its own. With `certificateInput`, that context presents the certificate
   * chosen in that input to `origins`; without it (a macro without certificate), a plain context.
   */
  async open(request: { certificateInput?: string; origins?: readonly string[] } = {}): Promise<Page> {
    if (this.closed) throw new Error('El navegador del robot ya se ha cerrado');
    if (request.certificateInput === undefined) {
      return this.newPage(await this.launch(), {});
    }
    const fingerprint = this.options.inputs[request.certificateInput];
    if (typeof fingerprint !== 'string' || !FINGERPRINT.test(fingerprint)) {
      throw new Error(`No se ha elegido un certificado en la entrada «${request.certificateInput}»`);
    }
    const origins = (request.origins ?? []).map(originOf);
    if (origins.length === 0) throw new Error('openBrowser necesita al menos un origen (https://...) al que presentar el certificado');

    const [certificate, browser] = await Promise.all([this.options.clientCertificate(fingerprint), this.launch()]);
    const pfx = Buffer.from(certificate.pfx);
    try {
      return await this.newPage(browser, { clientCertificates: origins.map((origin) => ({ origin, pfx, passphrase: certificate.passphrase })) });
    } finally {
      // Playwright has made its TLS context from it; this copy of the key is no longer needed.
      pfx.fill(0);
    }
  }

  private async newPage(browser: Browser, options: BrowserContextOptions): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true, ignoreHTTPSErrors: this.options.ignoreHTTPSErrors, ...options });
    this.contexts.push(context);
    if (this.closed) await this.closeAll();
    return context.newPage();
  }

  /** Closes every context and the browser; safe to call more than once, and it never throws. */
  async closeAll(): Promise<void> {
    this.closed = true;
    // A browser launched ahead closes too, even if the robot never opened it.
    const browser = this.browser ?? this.options.launched;
    this.browser = null;
    await Promise.allSettled(this.contexts.splice(0).map((context) => context.close()));
    if (browser) await browser.then((opened) => opened.close()).catch(() => undefined);
  }

  private launch(): Promise<Browser> {
    const { launched } = this.options;
    this.browser ??= launched ? launched.then((browser) => (browser.isConnected() ? browser : this.launchNew()), () => this.launchNew()) : this.launchNew();
    return this.browser;
  }

  private launchNew(): Promise<Browser> {
    // playwright-core is imported on the first browser only: robots without one start faster.
    return import('playwright-core')
      .then(({ chromium }) => chromium.launch(this.options.launchOptions))
      .catch((error: unknown) => {
        const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        throw new Error(`No se ha podido abrir el navegador (${browserName(this.options.launchOptions)}): ${reason}`);
      });
  }
}

function browserName(options: LaunchOptions): string {
  if (options.executablePath) return options.executablePath;
  return options.channel === 'msedge' ? 'Microsoft Edge' : options.channel === 'chrome' ? 'Google Chrome' : 'Chromium';
}

/** 'https://sede.example/ruta' -> 'https://sede.example' (clientCertificates match whole origins). */
function originOf(address: string): string {
  if (!URL.canParse(address)) throw new Error(`${address} no es una dirección web válida`);
  const url = new URL(address);
  if (url.protocol !== 'https:') throw new Error(`El certificado solo se presenta por HTTPS: ${address}`);
  return url.origin;
}
