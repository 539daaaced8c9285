import type { CertificateSource } from '../bridge/context.ts';
import type { DeviceLinkRecord } from '../device/token-store.ts';
import { createAltasDesktop } from './desktop.ts';
import { createRedRegistrar } from './red/registrar.ts';
import { readAltasSettings, redRegistrarSettings } from './settings.ts';
import type { AltasDesktop } from './types.ts';

export interface HostAltasOptions {
  link: { ready(): Promise<void>; current(): DeviceLinkRecord | null };
  certificates: Pick<CertificateSource, 'clientCertificate'>;
  /** The host's data folder (its settings.json). */
  dataFolder: string;
  /** The host's environment; an installed app passes NODE_ENV 'production' (no stand-in switches). */
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
}

/** The altas service as both hosts (Electron main, agent) build it: settings from the data folder, RED through the registrar. */
export function createHostAltasDesktop(options: HostAltasOptions): AltasDesktop {
  const settings = () => readAltasSettings(options.dataFolder, options.env);
  const now = () => new Date();
  return createAltasDesktop({
    link: options.link,
    settings,
    registrar: (current) =>
      createRedRegistrar({ certificates: options.certificates, settings: async () => redRegistrarSettings(current), chromiumPath: options.env.CHROMIUM_PATH || null, now }),
    fetch: options.fetch,
    now,
  });
}
