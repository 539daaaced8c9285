/**
 * Test support: a small Google-and-Microsoft authorization server over real HTTP (127.0.0.1, an
 * ephemeral port), so the accounts module is tested through oauth4webapi against the wire, not mocks.
 * /authorize redirects with a code; /token checks client, redirect URI and the PKCE verifier, issues
 * RS256 id_tokens, refreshes (rotating Microsoft's refresh token) and answers invalid_grant for
 * anything revoked or used; /revoke revokes. Not product code.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MailProvider } from '#shared/api/mail.ts';
import { readForm, sendJson as json, signedIdToken } from '../../test/oauth-standin-http.ts';
import type { MailProvidersConfig } from './types.ts';

export const TEST_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
export const TEST_CLIENTS = {
  google: { web: { clientId: 'google-web', clientSecret: 'google-web-secret' }, desktop: { clientId: 'google-desktop', clientSecret: 'google-desktop-secret' } },
  microsoft: { web: { clientId: 'ms-web', clientSecret: 'ms-web-secret' }, desktop: { clientId: 'ms-desktop' } },
} as const;

interface IssuedCode {
  provider: MailProvider;
  clientId: string;
  redirectUri: string;
  challenge: string;
  email: string;
  scope: string;
}

interface Grant {
  provider: MailProvider;
  clientId: string;
  email: string;
  scope: string;
}

export interface TestOAuthProvider {
  baseUrl: string;
  config: MailProvidersConfig;
  /** Access tokens and refresh tokens issued, for asserting what the database must not show. */
  issuedTokens: string[];
  /** Refresh grants answered (valid or not), per provider. */
  refreshCalls: Record<MailProvider, number>;
  /** Tokens /revoke received. */
  revoked: string[];
  /** Makes every stored refresh token of this address invalid (as a password change or revoked consent does). */
  revokeAllFor(email: string): void;
  /** expires_in of the next tokens (seconds; 3600 by default). */
  setExpiresIn(seconds: number): void;
  /** Delays refresh answers, so two refreshes can overlap. */
  setRefreshDelay(ms: number): void;
  /** The scope the next codes grant (a user who unticked Gmail). */
  setGrantedScope(scope: string | null): void;
  close(): Promise<void>;
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const idToken = (claims: Record<string, unknown>): string => signedIdToken(claims, privateKey, 'test');

export async function startTestOAuthProvider(): Promise<TestOAuthProvider> {
  const codes = new Map<string, IssuedCode>();
  const refreshTokens = new Map<string, Grant>();
  const issuedTokens: string[] = [];
  const refreshCalls: Record<MailProvider, number> = { google: 0, microsoft: 0 };
  const revoked: string[] = [];
  let expiresIn = 3600;
  let refreshDelay = 0;
  let grantedScope: string | null = null;
  let baseUrl = '';

  const issuer = (provider: MailProvider) => (provider === 'google' ? `${baseUrl}/google` : `${baseUrl}/microsoft/${TEST_TENANT}/v2.0`);
  const secretOf = (provider: MailProvider, clientId: string): string | null | undefined => {
    const clients = Object.values(TEST_CLIENTS[provider]) as Array<{ clientId: string; clientSecret?: string }>;
    const client = clients.find((candidate) => candidate.clientId === clientId);
    return client ? (client.clientSecret ?? null) : undefined;
  };

  const tokens = (grant: Grant, withIdToken: boolean, refresh: string | null) => {
    const accessToken = `at-${randomBytes(12).toString('hex')}`;
    issuedTokens.push(accessToken);
    if (refresh) issuedTokens.push(refresh);
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer(grant.provider),
      aud: grant.clientId,
      sub: createHash('sha256').update(grant.email).digest('hex').slice(0, 20),
      iat: now,
      exp: now + 3600,
      ...(grant.provider === 'google' ? { email: grant.email, email_verified: true } : { preferred_username: grant.email, tid: TEST_TENANT }),
    };
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: grant.scope,
      ...(refresh && { refresh_token: refresh }),
      ...(withIdToken && { id_token: idToken(claims) }),
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const [, providerPart, action] = url.pathname.split('/');
    const provider: MailProvider | null = providerPart === 'google' || providerPart === 'microsoft' ? providerPart : null;
    if (!provider) return json(response, 404, { error: 'not_found' });

    if (action === 'authorize' && request.method === 'GET') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        provider,
        clientId: url.searchParams.get('client_id') ?? '',
        redirectUri: redirect.href,
        challenge: url.searchParams.get('code_challenge') ?? '',
        email: url.searchParams.get('login_hint') ?? `usuario@${provider}.test`,
        scope: grantedScope ?? url.searchParams.get('scope') ?? '',
      });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: redirect.href }).end();
      return;
    }

    if (action === 'revoke' && request.method === 'POST') {
      const form = await readForm(request);
      const token = form.get('token') ?? '';
      revoked.push(token);
      refreshTokens.delete(token);
      return json(response, 200, {});
    }

    if (action !== 'token' || request.method !== 'POST') return json(response, 404, { error: 'not_found' });
    const form = await readForm(request);
    const clientId = form.get('client_id') ?? '';
    const secret = secretOf(provider, clientId);
    if (secret === undefined || (secret !== null && form.get('client_secret') !== secret)) return json(response, 401, { error: 'invalid_client' });

    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!code || code.clientId !== clientId || code.redirectUri !== form.get('redirect_uri') || code.challenge !== challenge) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'code, redirect_uri or code_verifier do not match' });
      }
      const grant: Grant = { provider, clientId, email: code.email, scope: code.scope };
      const refresh = `rt-${randomUUID()}`;
      refreshTokens.set(refresh, grant);
      return json(response, 200, tokens(grant, true, refresh));
    }

    if (form.get('grant_type') === 'refresh_token') {
      refreshCalls[provider] += 1;
      if (refreshDelay > 0) await new Promise((resolve) => setTimeout(resolve, refreshDelay));
      const old = form.get('refresh_token') ?? '';
      const grant = refreshTokens.get(old);
      if (!grant || grant.clientId !== clientId) return json(response, 400, { error: 'invalid_grant', error_description: 'refresh token revoked or unknown' });
      // Microsoft: every refresh token replaces itself; the old one stops working at once here (stricter than Microsoft).
      let rotated: string | null = null;
      if (provider === 'microsoft') {
        refreshTokens.delete(old);
        rotated = `rt-${randomUUID()}`;
        refreshTokens.set(rotated, grant);
      }
      return json(response, 200, tokens(grant, provider === 'microsoft', rotated));
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { error: 'server_error', error_description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const config: MailProvidersConfig = {
    google: {
      issuer: `${baseUrl}/google`,
      authorizationEndpoint: `${baseUrl}/google/authorize`,
      tokenEndpoint: `${baseUrl}/google/token`,
      revocationEndpoint: `${baseUrl}/google/revoke`,
      apiBaseUrl: `${baseUrl}/gmail`,
      web: { ...TEST_CLIENTS.google.web },
      desktop: { ...TEST_CLIENTS.google.desktop },
    },
    microsoft: {
      issuer: `${baseUrl}/microsoft/{tenantid}/v2.0`,
      authorizationEndpoint: `${baseUrl}/microsoft/authorize`,
      tokenEndpoint: `${baseUrl}/microsoft/token`,
      revocationEndpoint: null,
      apiBaseUrl: `${baseUrl}/graph`,
      web: { ...TEST_CLIENTS.microsoft.web },
      desktop: { ...TEST_CLIENTS.microsoft.desktop },
    },
  };

  return {
    baseUrl,
    config,
    issuedTokens,
    refreshCalls,
    revoked,
    revokeAllFor(email) {
      for (const [token, grant] of refreshTokens) if (grant.email === email) refreshTokens.delete(token);
    },
    setExpiresIn(seconds) {
      expiresIn = seconds;
    },
    setRefreshDelay(ms) {
      refreshDelay = ms;
    },
    setGrantedScope(scope) {
      grantedScope = scope;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
