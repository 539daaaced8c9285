import type { MailProviders, StandinClient } from './providers.ts';

export interface StandinClients {
  googleWeb: StandinClient;
  googleDesktop: StandinClient;
  microsoftWeb: StandinClient;
  microsoftDesktop: StandinClient;
}

/**
 * The MAIL_* settings that point the server at this stand-in (server/modules/mail/providers.ts reads
 * them; main/mail/settings.ts reads the desktop's, though by default it takes its client from the server). Microsoft's issuer is the 'common' template, as
 * for the real multi-tenant authority: the server expects each token's own tenant.
 */
export function mailProvidersEnv(providers: MailProviders, clients: StandinClients): Record<string, string> {
  return {
    MAIL_GOOGLE_AUTHORIZATION_URL: providers.google.authorizationEndpoint,
    MAIL_GOOGLE_TOKEN_URL: providers.google.tokenEndpoint,
    MAIL_GOOGLE_REVOCATION_URL: providers.google.revocationEndpoint,
    MAIL_GOOGLE_ISSUER: providers.google.issuer,
    MAIL_GOOGLE_API_URL: providers.google.apiBaseUrl,
    MAIL_GOOGLE_CLIENT_ID: clients.googleWeb.clientId,
    ...(clients.googleWeb.clientSecret !== undefined && { MAIL_GOOGLE_CLIENT_SECRET: clients.googleWeb.clientSecret }),
    MAIL_GOOGLE_DESKTOP_CLIENT_ID: clients.googleDesktop.clientId,
    ...(clients.googleDesktop.clientSecret !== undefined && { MAIL_GOOGLE_DESKTOP_CLIENT_SECRET: clients.googleDesktop.clientSecret }),
    MAIL_MICROSOFT_AUTHORIZATION_URL: providers.microsoft.authorizationEndpoint,
    MAIL_MICROSOFT_TOKEN_URL: providers.microsoft.tokenEndpoint,
    MAIL_MICROSOFT_ISSUER: providers.microsoft.issuerTemplate,
    MAIL_MICROSOFT_API_URL: providers.microsoft.apiBaseUrl,
    MAIL_MICROSOFT_CLIENT_ID: clients.microsoftWeb.clientId,
    ...(clients.microsoftWeb.clientSecret !== undefined && { MAIL_MICROSOFT_CLIENT_SECRET: clients.microsoftWeb.clientSecret }),
    MAIL_MICROSOFT_DESKTOP_CLIENT_ID: clients.microsoftDesktop.clientId,
  };
}
