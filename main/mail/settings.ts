import type { MailProvider } from '#shared/api/mail.ts';
import type { MailDesktopSettings, MailProviderDesktopSettings } from './types.ts';

/**
 * The real endpoints. The server reads the SAME variables for its desktop client (it redeems the code
 * this PC receives with the same client id), so one environment configures both.
 */
export const MAIL_DESKTOP_DEFAULTS: Record<MailProvider, { authorizationUrl: string; issuer: string }> = {
  google: { authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth', issuer: 'https://accounts.google.com' },
  // The multi-tenant 'common' authority issues per-tenant issuers (the server's default is the same template).
  // Entra ID sends no `iss` in its authorization response today; authorize.ts accepts any tenant's if it does.
  microsoft: { authorizationUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize', issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0' },
};

const ENV_PREFIX: Record<MailProvider, string> = { google: 'MAIL_GOOGLE', microsoft: 'MAIL_MICROSOFT' };

/**
 * From the environment:
 *   MAIL_GOOGLE_AUTHORIZATION_URL, MAIL_GOOGLE_ISSUER, MAIL_GOOGLE_DESKTOP_CLIENT_ID
 *   MAIL_MICROSOFT_AUTHORIZATION_URL, MAIL_MICROSOFT_ISSUER, MAIL_MICROSOFT_DESKTOP_CLIENT_ID
 * URLs default to the real providers; without a client id the provider is not offered. Throws a Spanish
 * Error naming the variable when an address is not http(s) (http only makes sense for a local stand-in).
 */
export function readMailDesktopSettings(env: NodeJS.ProcessEnv = process.env): MailDesktopSettings {
  const one = (provider: MailProvider): MailProviderDesktopSettings => {
    const prefix = ENV_PREFIX[provider];
    const authorizationUrl = env[`${prefix}_AUTHORIZATION_URL`]?.trim() || MAIL_DESKTOP_DEFAULTS[provider].authorizationUrl;
    checkWebAddress(`${prefix}_AUTHORIZATION_URL`, authorizationUrl);
    return {
      authorizationUrl,
      issuer: env[`${prefix}_ISSUER`]?.trim() || MAIL_DESKTOP_DEFAULTS[provider].issuer,
      clientId: env[`${prefix}_DESKTOP_CLIENT_ID`]?.trim() || null,
    };
  };
  return { google: one('google'), microsoft: one('microsoft') };
}

function checkWebAddress(variable: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} no es una dirección válida: «${value.slice(0, 80)}».`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${variable} debe ser una dirección https:// (o http:// para un servidor de pruebas local), no «${value.slice(0, 80)}».`);
  }
}
