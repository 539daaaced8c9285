import { startMailProviders, type MailProviders, type StandinClient, type StoredMessage } from '../standins/mail-providers/providers.ts';

/**
 * The mail providers' stand-in as the browser tests use it (standins/mail-providers/): Google's and
 * Microsoft's OAuth servers, Gmail and Graph, reached by the server and the agent through the same MAIL_*
 * variables that name the real ones. Web clients accept the test server's /oauth-response once its address
 * is known (allowWebRedirect); desktop clients any loopback port.
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
  /**
   * What the agent reads (main/mail/settings.ts): nothing, as on an installed PC — its OAuthConnect takes
   * the desktop client the server announces (GET /api/mail/oauth/desktop-clients).
   */
  agentEnv: Record<string, string>;
  allowWebRedirect(publicUrl: string): void;
}

export async function startE2eMailProviders(): Promise<E2eMailProviders> {
  const providers = await startMailProviders({
    google: { clients: [clients.googleWeb, clients.googleDesktop], account: { email: E2E_GOOGLE_ACCOUNT, name: 'Asesoría E2E' } },
    microsoft: { clients: [clients.microsoftWeb, clients.microsoftDesktop], account: { email: E2E_MICROSOFT_ACCOUNT, name: 'Asesoría E2E' } },
  });
  const desktopEnv = {
    MAIL_GOOGLE_AUTHORIZATION_URL: providers.google.authorizationEndpoint,
    MAIL_GOOGLE_ISSUER: providers.google.issuer,
    MAIL_GOOGLE_DESKTOP_CLIENT_ID: clients.googleDesktop.clientId,
    MAIL_MICROSOFT_AUTHORIZATION_URL: providers.microsoft.authorizationEndpoint,
    MAIL_MICROSOFT_ISSUER: providers.microsoft.issuerTemplate,
    MAIL_MICROSOFT_DESKTOP_CLIENT_ID: clients.microsoftDesktop.clientId,
  };
  const serverEnv = {
    ...desktopEnv,
    MAIL_GOOGLE_TOKEN_URL: providers.google.tokenEndpoint,
    MAIL_GOOGLE_REVOCATION_URL: providers.google.revocationEndpoint,
    MAIL_GOOGLE_API_URL: providers.google.apiBaseUrl,
    MAIL_GOOGLE_CLIENT_ID: clients.googleWeb.clientId,
    MAIL_GOOGLE_CLIENT_SECRET: clients.googleWeb.clientSecret,
    MAIL_GOOGLE_DESKTOP_CLIENT_SECRET: clients.googleDesktop.clientSecret,
    MAIL_MICROSOFT_TOKEN_URL: providers.microsoft.tokenEndpoint,
    MAIL_MICROSOFT_API_URL: providers.microsoft.apiBaseUrl,
    MAIL_MICROSOFT_CLIENT_ID: clients.microsoftWeb.clientId,
    MAIL_MICROSOFT_CLIENT_SECRET: clients.microsoftWeb.clientSecret,
  };
  return { providers, serverEnv, agentEnv: {}, allowWebRedirect: (publicUrl) => void webRedirects.push(`${publicUrl.replace(/\/+$/, '')}/oauth-response`) };
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
