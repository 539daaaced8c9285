/**
 * The token endpoint (authorization_code with PKCE, refresh_token) and Google's revocation endpoint.
 * Errors are RFC 6749 §5.2 JSON. Google keeps a refresh token; Microsoft rotates it on every use and the
 * old one answers invalid_grant from then on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderSetup, StandinClient } from './authorize.ts';
import { basicCredentials, parseForm, readBody, sendJson } from './http.ts';
import type { IdTokenSigner } from './jwt.ts';
import type { Grant, Provider } from './store.ts';

export interface TokenSetup extends ProviderSetup {
  issuer: string;
  tenantId: string;
  signer: IdTokenSigner;
  accessTokenSeconds: number;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** client_secret_basic or client_secret_post when the client has a secret; client_id alone for a public one. */
function authenticate(setup: TokenSetup, request: IncomingMessage, form: URLSearchParams): StandinClient {
  const basic = basicCredentials(request);
  const clientId = basic?.id ?? form.get('client_id') ?? '';
  const secret = basic?.secret ?? form.get('client_secret');
  const client = setup.clients.find((candidate) => candidate.clientId === clientId);
  if (client === undefined) throw new OAuthError(401, 'invalid_client', 'The OAuth client was not found.');
  if (client.clientSecret !== undefined && (secret === null || !sameSecret(secret, client.clientSecret))) {
    throw new OAuthError(401, 'invalid_client', 'Invalid client secret.');
  }
  return client;
}

const subjectOf = (provider: Provider, email: string) => createHash('sha256').update(`${provider}:${email.toLowerCase()}`).digest('hex').slice(0, 21);

function idToken(setup: TokenSetup, grant: Grant, withNonce: boolean): string {
  const now = Math.floor(Date.now() / 1000);
  const common = { iss: setup.issuer, aud: grant.clientId, sub: subjectOf(grant.provider, grant.email), email: grant.email, iat: now, exp: now + 3600, ...(withNonce && grant.nonce ? { nonce: grant.nonce } : {}) };
  if (setup.provider === 'google') return setup.signer.sign({ ...common, azp: grant.clientId, email_verified: true, ...(grant.name ? { name: grant.name } : {}) });
  return setup.signer.sign({ ...common, ver: '2.0', nbf: now, tid: setup.tenantId, oid: subjectOf('microsoft', `oid:${grant.email}`), preferred_username: grant.email, name: grant.name ?? grant.email });
}

/** Microsoft names Graph's permissions by their full URI in what it grants. */
const grantedScopes = (provider: Provider, scopes: string[]) => (provider === 'microsoft' ? scopes.map((scope) => (scope === 'Mail.Send' ? 'https://graph.microsoft.com/Mail.Send' : scope)) : scopes);

function tokenResponse(setup: TokenSetup, grant: Grant, family: string, refreshToken: string | null, withNonce: boolean): Record<string, unknown> {
  return {
    access_token: setup.store.issueAccessToken(grant, family),
    token_type: 'Bearer',
    expires_in: setup.accessTokenSeconds,
    scope: grant.scopes.join(' '),
    ...(refreshToken === null ? {} : { refresh_token: refreshToken }),
    ...(grant.scopes.includes('openid') ? { id_token: idToken(setup, grant, withNonce) } : {}),
  };
}

function exchangeCode(setup: TokenSetup, client: StandinClient, form: URLSearchParams): Record<string, unknown> {
  const code = form.get('code') ?? '';
  const record = setup.store.redeemCode(code, setup.provider);
  if (record === 'unknown') throw new OAuthError(400, 'invalid_grant', 'The authorization code is not valid.');
  if (record === 'reused') throw new OAuthError(400, 'invalid_grant', 'The authorization code has already been used; the tokens it issued are revoked.');
  if (record === 'expired') throw new OAuthError(400, 'invalid_grant', 'The authorization code has expired.');
  if (record.clientId !== client.clientId) throw new OAuthError(400, 'invalid_grant', 'The authorization code was issued to another client.');
  if (form.get('redirect_uri') !== record.redirectUri) throw new OAuthError(400, 'invalid_grant', 'redirect_uri does not match the one of the authorization request.');
  const verifier = form.get('code_verifier') ?? '';
  if (!VERIFIER.test(verifier)) throw new OAuthError(400, 'invalid_grant', 'code_verifier is missing or malformed.');
  if (createHash('sha256').update(verifier).digest('base64url') !== record.challenge) throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed.');
  const grant: Grant = { ...record, scopes: grantedScopes(setup.provider, record.scopes) };
  const refreshToken = record.offline ? setup.store.issueRefreshToken(grant, code) : null;
  return tokenResponse(setup, grant, code, refreshToken, true);
}

function refresh(setup: TokenSetup, client: StandinClient, form: URLSearchParams): Record<string, unknown> {
  const presented = form.get('refresh_token') ?? '';
  const grant = setup.store.refreshGrant(presented, setup.provider, client.clientId);
  if (grant === null) throw new OAuthError(400, 'invalid_grant', 'The refresh token is invalid, expired or revoked.');
  setup.store.countRefresh(grant.email);
  if (setup.provider === 'google') return tokenResponse(setup, grant, grant.family, null, false);
  setup.store.invalidate(presented);
  return tokenResponse(setup, grant, grant.family, setup.store.issueRefreshToken(grant, grant.family), false);
}

export async function handleToken(setup: TokenSetup, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const failure = setup.store.takeFailure(setup.provider === 'google' ? 'google-token' : 'microsoft-token');
  if (failure !== null) {
    const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { 'retry-after': String(failure.retryAfterSeconds) };
    return sendJson(response, failure.status, { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable (stand-in failure).' }, headers);
  }
  try {
    if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    const read = await readBody(request, 64 * 1024);
    if (read.tooLarge) throw new OAuthError(400, 'invalid_request', 'The request is too large.');
    const form = parseForm(read.body);
    const client = authenticate(setup, request, form);
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return sendJson(response, 200, exchangeCode(setup, client, form));
    if (grantType === 'refresh_token') return sendJson(response, 200, refresh(setup, client, form));
    throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grantType ?? '(none)'} is not supported.`);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Basic realm="token"' } : {};
    sendJson(response, error.status, { error: error.error, error_description: error.message }, headers);
  }
}

/** Google's revocation endpoint: token in the form or the query; 200 when known, 400 invalid_token when not. */
export async function handleRevoke(setup: ProviderSetup, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const read = await readBody(request, 64 * 1024);
  const fromQuery = new URL(request.url ?? '/', 'http://standin.invalid').searchParams.get('token');
  const token = fromQuery ?? (read.tooLarge ? null : parseForm(read.body).get('token'));
  if (token === null || !setup.store.revokeToken(token)) return sendJson(response, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
  sendJson(response, 200, {});
}
