import type { CertificateSource } from '../bridge/context.ts';
import type { DeviceLinkRecord } from '../device/token-store.ts';
import { createDehuDesktop } from './desktop.ts';
import { readDehuSettings } from './settings.ts';
import type { DehuDesktop, LemaClient, LemaClientOptions } from './types.ts';

export interface HostDehuOptions {
  link: { ready(): Promise<void>; current(): DeviceLinkRecord | null };
  certificates: Pick<CertificateSource, 'list' | 'clientCertificate'>;
  /** The host's data folder (its settings.json). */
  dataFolder: string;
  /** The host's environment; an installed app passes NODE_ENV 'production' (the real LEMA). */
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  /** main/dehu/lema/client.ts createLemaClient. */
  lemaClient: (options: LemaClientOptions) => LemaClient;
}

/** The DEHÚ service as both hosts (Electron main, agent) build it: settings from the data folder and env. */
export function createHostDehuDesktop(options: HostDehuOptions): DehuDesktop {
  return createDehuDesktop({
    link: options.link,
    certificates: options.certificates,
    settings: () => readDehuSettings(options.dataFolder, options.env),
    lemaClient: options.lemaClient,
    fetch: options.fetch,
    now: () => new Date(),
  });
}
