import { mailProvidersEnv } from '../standins/mail-providers/env.ts';
import { startMailProviders, type MailProviders, type StandinClient, type StoredMessage } from '../standins/mail-providers/providers.ts';

/**
 * The mail providers' stand-in as the browser tests use it (standins/mail-providers/): Google's and
 * Microsoft's OAuth servers, Gmail and Graph, reached by the server through the MAIL_* variables that name
 * the real ones; the agent has none of its own, as on an installed PC, and takes the desktop client the
 * server announces. Web clients accept the test server's /oauth-response once its address is known
 * (allowWebRedirect); desktop clients any loopback port.
 */
export const E2E_GOOGLE_ACCOUNT = 'asesoria.e2e@gmail.com';
export const E2E_MICROSOFT_ACCOUNT = 'asesoria.e2e@outlook.com';

const webRedirects: string[] = [];
const clients = {
  googleWeb: { clientId: 'e2e-web.apps.googleusercontent.test', clientSecret: 'e2e-google-web-secret', name: 'AutoAsesor', redirectUris: webRedirects, kind: 'web' },
  googleDesktop: { clientId: 'e2e-desktop.apps.googleusercontent.test', clientSecret: 'e2e-google-desktop-secret', name: 'AutoAsesor (escritorio)', kind: 'desktop' },
  microsoftWeb: { clientId: '00000000-0000-4000-8000-0000000e2e01', clientSecret: 'e2e-microsoft-web-secret', name: 'AutoAsesor', redirectUris: webRedirects, kind: 'web' },
  microsoftDesktop: { clientId: '00000000-0000-4000-8000-0000000e2e02', name: 'AutoAsesor (escritorio)', kind: 'desktop' },
} satisfies Record<string, StandinClient>;

export interface E2eMailProviders {
  providers: MailProviders;
  /** What the server reads (server/modules/mail/providers.ts). */
  serverEnv: Record<string, string>;
  allowWebRedirect(publicUrl: string): void;
}

export async function startE2eMailProviders(): Promise<E2eMailProviders> {
  const providers = await startMailProviders({
    google: { clients: [clients.googleWeb, clients.googleDesktop], account: { email: E2E_GOOGLE_ACCOUNT, name: 'Asesoría E2E' } },
    microsoft: { clients: [clients.microsoftWeb, clients.microsoftDesktop], account: { email: E2E_MICROSOFT_ACCOUNT, name: 'Asesoría E2E' } },
  });
  const serverEnv = mailProvidersEnv(providers, clients);
  return { providers, serverEnv, allowWebRedirect: (publicUrl) => void webRedirects.push(`${publicUrl.replace(/\/+$/, '')}/oauth-response`) };
}

function standinUrl(): string {
  const url = process.env.E2E_MAIL_PROVIDERS_URL;
  if (!url) throw new Error('E2E_MAIL_PROVIDERS_URL is not set: run through playwright.config.ts (global setup).');
  return url;
}

/** What the fake Gmail and Graph received, oldest first (the stand-in runs in the global setup's process). */
export async function receivedMessages(): Promise<StoredMessage[]> {
  const response = await fetch(`${standinUrl()}/_standin/messages`);
  if (!response.ok) throw new Error(`The mail stand-in answered ${response.status}`);
  return (await response.json()) as StoredMessage[];
}

/** The messages sent to an address, oldest first. */
export async function messagesTo(address: string): Promise<StoredMessage[]> {
  return (await receivedMessages()).filter((message) => message.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}
