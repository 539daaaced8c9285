/**
 * Everything OAuth for linked mailboxes, through oauth4webapi (standards only, no hand-rolled token
 * code): the authorization URL (PKCE S256, random state), the code redemption, refresh and revocation.
 * Nothing here touches the database; accounts.ts decides what to keep. No token, code or verifier is
 * ever put in an error message or a log line.
 */
import * as oauth from 'oauth4webapi';
import { MAIL_SCOPES, type MailProvider } from '#shared/api/mail.ts';
import type { MailProviderConfig, OAuthClientConfig } from './types.ts';

/** The provider refused the grant (a revoked or rotated refresh token, a code already used, a wrong PKCE verifier). */
export class InvalidGrantError extends Error {
  constructor() {
    super('El proveedor de correo ha rechazado la autorización (invalid_grant).');
    this.name = 'InvalidGrantError';
  }
}

/** The provider answered, but not what a successful redemption needs (its own error, no id_token, no refresh token, no send scope). */
export class OAuthExchangeError extends Error {
  constructor(
    message: string,
    /** The provider's error code (invalid_client...) or what was missing; safe to log. */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'OAuthExchangeError';
  }
}

export interface OAuthTarget {
  provider: MailProvider;
  config: MailProviderConfig;
  client: OAuthClientConfig;
}

/** What a redemption or a refresh leaves: the tokens to seal, and who they belong to. */
export interface GrantedTokens {
  accessToken: string;
  /** Absent on a refresh that did not rotate (Google). */
  refreshToken: string | null;
  /** Seconds, as the provider said. */
  expiresIn: number | null;
  scope: string | null;
  /** The linked address from the id_token (redemption only). */
  email: string | null;
}

/**
 * oauth4webapi's hook for issuers that vary per token (documented, but left out of its .d.ts): a
 * function on the AuthorizationServer that returns the `iss` to expect.
 */
const EXPECTED_ISSUER: unknown = (oauth as unknown as { _expectedIssuer?: unknown })._expectedIssuer;

/** Microsoft tenants are GUIDs; 'common' issues per-tenant `iss` values built from the token's `tid`. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TENANT_PLACEHOLDER = '{tenantid}';

/** The issuer an id_token must carry: the configured one, or for a '{tenantid}' template the token's own tenant's. */
export function expectedIssuer(template: string, claims: Record<string, unknown>): string {
  if (!template.includes(TENANT_PLACEHOLDER)) return template;
  const tid = claims.tid;
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) return template;
  const issuer = template.replace(TENANT_PLACEHOLDER, tid);
  // Only when `iss` is exactly this tenant's issuer; anything else fails oauth4webapi's comparison.
  return claims.iss === issuer ? issuer : template;
}

function authorizationServer(config: MailProviderConfig): oauth.AuthorizationServer {
  const server: oauth.AuthorizationServer = {
    issuer: config.issuer,
    authorization_endpoint: config.authorizationEndpoint,
    token_endpoint: config.tokenEndpoint,
    ...(config.revocationEndpoint && { revocation_endpoint: config.revocationEndpoint }),
  };
  // Without the hook (an oauth4webapi that dropped it) the template itself is expected, which no token matches: it fails closed.
  if (config.issuer.includes(TENANT_PLACEHOLDER) && typeof EXPECTED_ISSUER === 'symbol') {
    Object.assign(server, { [EXPECTED_ISSUER]: (result: { claims: Record<string, unknown> }) => expectedIssuer(config.issuer, result.claims) });
  }
  return server;
}

function clientOf(target: OAuthTarget): oauth.Client {
  return { client_id: target.client.clientId };
}

function clientAuth(target: OAuthTarget): oauth.ClientAuth {
  return target.client.clientSecret ? oauth.ClientSecretPost(target.client.clientSecret) : oauth.None();
}

/** Plain http only for local stand-ins: exactly when the endpoint is http. */
function transport(endpoint: string): { [oauth.allowInsecureRequests]?: boolean; signal: AbortSignal } {
  return { ...(endpoint.startsWith('http://') && { [oauth.allowInsecureRequests]: true }), signal: AbortSignal.timeout(20_000) };
}

export interface AuthorizationRequest {
  authorizationUrl: string;
  state: string;
  codeVerifier: string;
}

/** Where to send the browser: code flow with PKCE S256 and a fresh random state. */
export async function buildAuthorizationRequest(target: OAuthTarget, redirectUri: string, loginHint?: string): Promise<AuthorizationRequest> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(target.config.authorizationEndpoint);
  url.searchParams.set('client_id', target.client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', MAIL_SCOPES[target.provider].join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (target.provider === 'google') {
    // Without both, Google sends a refresh token only the first time a user consents.
    url.searchParams.set('access_type', 'offline');
    url.searchParams.set('prompt', 'consent');
  }
  if (loginHint) url.searchParams.set('login_hint', loginHint);
  return { authorizationUrl: url.href, state, codeVerifier };
}

function linkedEmail(provider: MailProvider, claims: oauth.IDToken | undefined): string | null {
  if (!claims) return null;
  // Google says whether it checked the address; an unchecked one could name someone else's mailbox.
  if (provider === 'google' && claims.email_verified !== true) return null;
  // Microsoft puts the sign-in address in preferred_username and `email` only when the tenant sets it.
  const candidate = [claims.email, claims.preferred_username].find((value): value is string => typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value));
  return candidate ? candidate.toLowerCase() : null;
}

function grantError(error: unknown): unknown {
  if (error instanceof oauth.ResponseBodyError) {
    if (error.error === 'invalid_grant') return new InvalidGrantError();
    return new OAuthExchangeError('El proveedor de correo ha rechazado la petición.', error.error);
  }
  if (error instanceof oauth.OperationProcessingError) return new OAuthExchangeError('La respuesta del proveedor de correo no es válida.', error.code ?? 'invalid_response');
  return error;
}

function toGranted(response: oauth.TokenEndpointResponse, email: string | null): GrantedTokens {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? null,
    expiresIn: response.expires_in ?? null,
    scope: response.scope ?? null,
    email,
  };
}

/**
 * Redeems an authorization code (the web flow's, after its state was checked, or the desktop's).
 * Throws InvalidGrantError (a used code, a wrong verifier), OAuthExchangeError, or network errors as they are.
 */
export async function redeemCode(target: OAuthTarget, code: string, codeVerifier: string, redirectUri: string): Promise<GrantedTokens & { email: string; refreshToken: string }> {
  const server = authorizationServer(target.config);
  const client = clientOf(target);
  try {
    // The state was checked against our own record before this; the provider's parameters are the code alone.
    const parameters = oauth.validateAuthResponse(server, client, new URLSearchParams({ code }), oauth.expectNoState);
    const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuth(target), parameters, redirectUri, codeVerifier, transport(target.config.tokenEndpoint));
    const result = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: true });
    const email = linkedEmail(target.provider, oauth.getValidatedIdTokenClaims(result));
    if (!email) throw new OAuthExchangeError('El proveedor de correo no ha indicado la dirección de la cuenta.', 'no_email');
    if (!result.refresh_token) throw new OAuthExchangeError('El proveedor de correo no ha concedido acceso permanente.', 'no_refresh_token');
    return { ...toGranted(result, email), email, refreshToken: result.refresh_token };
  } catch (error) {
    throw grantError(error);
  }
}

/** A new access token (and Microsoft's rotated refresh token). Throws InvalidGrantError when the refresh token is dead. */
export async function refreshAccess(target: OAuthTarget, refreshToken: string): Promise<GrantedTokens> {
  const server = authorizationServer(target.config);
  const client = clientOf(target);
  try {
    const response = await oauth.refreshTokenGrantRequest(server, client, clientAuth(target), refreshToken, transport(target.config.tokenEndpoint));
    return toGranted(await oauth.processRefreshTokenResponse(server, client, response), null);
  } catch (error) {
    throw grantError(error);
  }
}

/** Revokes a token where the provider has an endpoint (Google); false where it has none. */
export async function revokeToken(target: OAuthTarget, token: string): Promise<boolean> {
  if (!target.config.revocationEndpoint) return false;
  const server = authorizationServer(target.config);
  try {
    const response = await oauth.revocationRequest(server, clientOf(target), clientAuth(target), token, transport(target.config.revocationEndpoint));
    await oauth.processRevocationResponse(response);
    return true;
  } catch (error) {
    throw grantError(error);
  }
}

/** Whether the granted scope lets us send (Google's consent screen lets a user untick Gmail). */
export function grantsSending(provider: MailProvider, scope: string | null): boolean {
  if (scope === null) return true;
  const granted = new Set(scope.split(/\s+/).map((item) => item.toLowerCase()));
  if (provider === 'google') return granted.has('https://www.googleapis.com/auth/gmail.send');
  // Microsoft answers its resource's scopes short ('Mail.Send') or whole.
  return granted.has('mail.send') || granted.has('https://graph.microsoft.com/mail.send');
}
