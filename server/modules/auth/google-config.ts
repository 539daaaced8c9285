type Env = Record<string, string | undefined>;

/** Sign in with Google (issue 40 §5): our OpenID Connect client there and Google's endpoints. */
export interface GoogleSignInConfig {
  clientId: string;
  clientSecret?: string;
  /** The id_token's `iss`. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Google's signing keys, to check the id_token's signature. */
  jwksUri: string;
}

export const GOOGLE_SIGNIN_DEFAULTS = {
  issuer: 'https://accounts.google.com',
  authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenEndpoint: 'https://oauth2.googleapis.com/token',
  jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
} as const;

function setting(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/** An absolute http(s) URL, or the server stops at start naming the variable. */
function url(env: Env, name: string, fallback: string): string {
  const value = setting(env, name) ?? fallback;
  let parsed: URL | null = null;
  try {
    parsed = new URL(value);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) throw new Error(`${name} no válido: ${value} (una dirección http:// o https://)`);
  return value.replace(/\/+$/, '');
}

/**
 * Sign in with Google from the environment; null (not offered) without GOOGLE_SIGNIN_CLIENT_ID.
 * - GOOGLE_SIGNIN_CLIENT_ID / GOOGLE_SIGNIN_CLIENT_SECRET: a "Web application" OAuth client whose
 *   authorized redirect URI is PUBLIC_URL/api/auth/google/callback
 * - GOOGLE_SIGNIN_ISSUER (https://accounts.google.com)
 * - GOOGLE_SIGNIN_AUTHORIZATION_URL, GOOGLE_SIGNIN_TOKEN_URL, GOOGLE_SIGNIN_JWKS_URL: Google's by
 *   default; tests and `npm run standins` point them at a local stand-in
 */
export function googleSignInFromEnv(env: Env): GoogleSignInConfig | null {
  const clientId = setting(env, 'GOOGLE_SIGNIN_CLIENT_ID');
  if (!clientId) return null;
  const clientSecret = setting(env, 'GOOGLE_SIGNIN_CLIENT_SECRET');
  return {
    clientId,
    ...(clientSecret && { clientSecret }),
    issuer: url(env, 'GOOGLE_SIGNIN_ISSUER', GOOGLE_SIGNIN_DEFAULTS.issuer),
    authorizationEndpoint: url(env, 'GOOGLE_SIGNIN_AUTHORIZATION_URL', GOOGLE_SIGNIN_DEFAULTS.authorizationEndpoint),
    tokenEndpoint: url(env, 'GOOGLE_SIGNIN_TOKEN_URL', GOOGLE_SIGNIN_DEFAULTS.tokenEndpoint),
    jwksUri: url(env, 'GOOGLE_SIGNIN_JWKS_URL', GOOGLE_SIGNIN_DEFAULTS.jwksUri),
  };
}
