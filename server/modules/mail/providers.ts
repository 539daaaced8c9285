import type { MailProvider } from '#shared/api/mail.ts';
import type { MailProviderConfig, MailProvidersConfig, OAuthClientConfig } from './types.ts';

type Env = Record<string, string | undefined>;

/**
 * The mail providers' endpoints and our OAuth clients there, from the environment. Every endpoint
 * defaults to the real one; tests and `npm run standins` point them at the local stand-ins.
 *
 * Google:
 * - MAIL_GOOGLE_AUTHORIZATION_URL (https://accounts.google.com/o/oauth2/v2/auth)
 * - MAIL_GOOGLE_TOKEN_URL (https://oauth2.googleapis.com/token)
 * - MAIL_GOOGLE_REVOCATION_URL (https://oauth2.googleapis.com/revoke)
 * - MAIL_GOOGLE_ISSUER (https://accounts.google.com): the id_token's `iss`
 * - MAIL_GOOGLE_API_URL (https://gmail.googleapis.com)
 * - MAIL_GOOGLE_CLIENT_ID / MAIL_GOOGLE_CLIENT_SECRET: the "Web application" client (the web flow,
 *   redirect PUBLIC_URL/oauth-response); unset: the web flow is not offered for Google
 * - MAIL_GOOGLE_DESKTOP_CLIENT_ID / MAIL_GOOGLE_DESKTOP_CLIENT_SECRET: the "Desktop app" client
 *   (loopback redirect + PKCE; Google's desktop secret is not confidential); unset: not offered
 *
 * Microsoft (no revocation endpoint: a user removes the app's consent at myaccount.microsoft.com):
 * - MAIL_MICROSOFT_AUTHORIZATION_URL (https://login.microsoftonline.com/common/oauth2/v2.0/authorize)
 * - MAIL_MICROSOFT_TOKEN_URL (https://login.microsoftonline.com/common/oauth2/v2.0/token)
 * - MAIL_MICROSOFT_ISSUER (https://login.microsoftonline.com/{tenantid}/v2.0): the 'common' authority
 *   issues per-tenant id_tokens; '{tenantid}' stands for the token's own `tid` (oauth.ts)
 * - MAIL_MICROSOFT_API_URL (https://graph.microsoft.com)
 * - MAIL_MICROSOFT_CLIENT_ID / MAIL_MICROSOFT_CLIENT_SECRET: the web platform registration
 * - MAIL_MICROSOFT_DESKTOP_CLIENT_ID (/_SECRET, normally unset: a public client) for "Mobile and
 *   desktop applications" with redirect http://127.0.0.1/oauth/callback (any port is accepted for loopback IP redirects) and public client flows allowed
 */
export const MAIL_PROVIDER_DEFAULTS: Record<MailProvider, Omit<MailProviderConfig, 'web' | 'desktop'>> = {
  google: {
    issuer: 'https://accounts.google.com',
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    revocationEndpoint: 'https://oauth2.googleapis.com/revoke',
    apiBaseUrl: 'https://gmail.googleapis.com',
  },
  microsoft: {
    issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
    authorizationEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    revocationEndpoint: null,
    apiBaseUrl: 'https://graph.microsoft.com',
  },
};

function setting(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/** An absolute http(s) URL, or the server stops at start naming the variable. */
function url(env: Env, name: string, fallback: string): string {
  const value = setting(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(value.replace('{tenantid}', 'tenant'));
  } catch {
    throw new Error(`${name} no válido: ${value} (una dirección http:// o https://)`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${name} no válido: ${value} (una dirección http:// o https://)`);
  return value.replace(/\/+$/, '');
}

function client(env: Env, prefix: string): OAuthClientConfig | null {
  const clientId = setting(env, `${prefix}_CLIENT_ID`);
  if (!clientId) return null;
  const clientSecret = setting(env, `${prefix}_CLIENT_SECRET`);
  return { clientId, ...(clientSecret && { clientSecret }) };
}

function provider(env: Env, provider: MailProvider): MailProviderConfig {
  const prefix = `MAIL_${provider.toUpperCase()}`;
  const defaults = MAIL_PROVIDER_DEFAULTS[provider];
  return {
    issuer: url(env, `${prefix}_ISSUER`, defaults.issuer),
    authorizationEndpoint: url(env, `${prefix}_AUTHORIZATION_URL`, defaults.authorizationEndpoint),
    tokenEndpoint: url(env, `${prefix}_TOKEN_URL`, defaults.tokenEndpoint),
    revocationEndpoint: defaults.revocationEndpoint === null ? null : url(env, `${prefix}_REVOCATION_URL`, defaults.revocationEndpoint),
    apiBaseUrl: url(env, `${prefix}_API_URL`, defaults.apiBaseUrl),
    web: client(env, prefix),
    desktop: client(env, `${prefix}_DESKTOP`),
  };
}

export function mailProvidersFromEnv(env: Env): MailProvidersConfig {
  return { google: provider(env, 'google'), microsoft: provider(env, 'microsoft') };
}
