/**
 * Test-only stand-in for Google's and Microsoft's OAuth authorization servers, Gmail's send API and
 * Graph's sendMail (external-systems §5), on one HTTP server at 127.0.0.1. Paths mirror the real ones
 * under a per-provider prefix, so the app reaches it by configuration alone:
 *
 *   /google/o/oauth2/v2/auth (+ /decision)   /google/token   /google/revoke   /google/oauth2/v3/certs
 *   /microsoft/{common|tenant}/oauth2/v2.0/authorize (+ /decision)   .../oauth2/v2.0/token   .../discovery/v2.0/keys
 *   /gmail/gmail/v1/users/me/messages/send   /gmail/upload/gmail/v1/users/me/messages/send?uploadType=media
 *   /graph/v1.0/me/sendMail
 *
 * and, for tests in other processes: GET /_standin/messages, POST /_standin/revoke {email},
 * POST /_standin/fail {api, status, times?, retryAfterSeconds?}, POST /_standin/expire-access.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gmailSend, graphSendMail, type StoredMessage } from './apis.ts';
import { decide, showConsent, type StandinAccount, type StandinClient } from './authorize.ts';
import { readBody, sendEmpty, sendJson } from './http.ts';
import { createIdTokenSigner } from './jwt.ts';
import { ProviderStore, type FailingApi } from './store.ts';
import { handleRevoke, handleToken, type TokenSetup } from './token.ts';

export type { StoredAttachment, StoredMessage } from './apis.ts';
export type { StandinAccount, StandinClient } from './authorize.ts';
export type { FailingApi } from './store.ts';

export interface MailProvidersOptions {
  /** 0 (any free port) by default. */
  port?: number;
  /** The account the consent page signs in as (editable on the page). */
  google: { clients: StandinClient[]; account: StandinAccount };
  /** tenantId: the tenant the accounts belong to (default: Microsoft's personal-accounts tenant). */
  microsoft: { clients: StandinClient[]; account: StandinAccount; tenantId?: string };
  /** 3600 by default. */
  accessTokenSeconds?: number;
}

export interface MailProviders {
  /** http://127.0.0.1:<port> */
  url: string;
  google: { issuer: string; authorizationEndpoint: string; tokenEndpoint: string; revocationEndpoint: string; jwksUri: string; apiBaseUrl: string };
  /**
   * issuer is the per-tenant one the id_tokens carry, as the real multi-tenant 'common' authority does;
   * issuerTemplate is what 'common' announces (`.../{tenantid}/v2.0`), which server/modules/mail/oauth.ts accepts.
   */
  microsoft: { issuer: string; issuerTemplate: string; tenantId: string; authorizationEndpoint: string; tokenEndpoint: string; jwksUri: string; apiBaseUrl: string };
  /** Everything received, oldest first. */
  messages(): StoredMessage[];
  /** Every token of that address now answers invalid_grant (refresh) or 401 (access). */
  revoke(email: string): void;
  failNext(api: FailingApi, status: number, times?: number, retryAfterSeconds?: number): void;
  /** Every issued access token now answers 401. */
  expireAccessTokens(): void;
  refreshCount(email: string): number;
  close(): Promise<void>;
}

/** The tenant of personal Microsoft accounts. */
const CONSUMERS_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const FAILING_APIS: readonly FailingApi[] = ['gmail', 'graph', 'google-token', 'microsoft-token'];
const MICROSOFT_PATH = /^\/microsoft\/([A-Za-z0-9.-]+)\/(oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/authorize\/decision|oauth2\/v2\.0\/token|discovery\/v2\.0\/keys|v2\.0\/\.well-known\/openid-configuration)$/;

export async function startMailProviders(options: MailProvidersOptions): Promise<MailProviders> {
  const accessTokenSeconds = options.accessTokenSeconds ?? 3600;
  const store = new ProviderStore(accessTokenSeconds);
  const signer = createIdTokenSigner();
  const messages: StoredMessage[] = [];
  const tenantId = options.microsoft.tenantId ?? CONSUMERS_TENANT;
  let url = '';
  const setups: { google: TokenSetup; microsoft: TokenSetup } = {
    google: { provider: 'google', clients: options.google.clients, account: options.google.account, store, signer, accessTokenSeconds, tenantId, issuer: '' },
    microsoft: { provider: 'microsoft', clients: options.microsoft.clients, account: options.microsoft.account, store, signer, accessTokenSeconds, tenantId, issuer: '' },
  };
  const api = { store, messages };

  async function control(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (request.method === 'GET' && path === '/_standin/messages') return sendJson(response, 200, messages);
    if (request.method !== 'POST') return sendJson(response, 405, { error: 'Método no admitido.' });
    const read = await readBody(request, 64 * 1024);
    let body: Record<string, unknown> = {};
    try {
      body = read.tooLarge || read.body.length === 0 ? {} : (JSON.parse(read.body.toString('utf8')) as Record<string, unknown>);
    } catch {
      return sendJson(response, 400, { error: 'El cuerpo debe ser JSON.' });
    }
    if (path === '/_standin/expire-access') {
      store.expireAccessTokens();
      return sendEmpty(response, 204);
    }
    if (path === '/_standin/revoke') {
      if (typeof body.email !== 'string' || body.email === '') return sendJson(response, 400, { error: 'Falta email.' });
      store.revokeEmail(body.email);
      return sendEmpty(response, 204);
    }
    if (path === '/_standin/fail') {
      const { api: failing, status, times, retryAfterSeconds } = body;
      const valid = FAILING_APIS.includes(failing as FailingApi) && Number.isInteger(status) && (times === undefined || Number.isInteger(times)) && (retryAfterSeconds === undefined || Number.isInteger(retryAfterSeconds));
      if (!valid) return sendJson(response, 400, { error: `api debe ser ${FAILING_APIS.join(', ')}; status, times y retryAfterSeconds, enteros.` });
      store.failNext(failing as FailingApi, status as number, (times as number | undefined) ?? 1, retryAfterSeconds as number | undefined);
      return sendEmpty(response, 204);
    }
    return sendJson(response, 404, { error: `No existe ${path}.` });
  }

  /** Microsoft's multi-tenant authorities announce the issuer template; a tenant's own, its issuer. */
  function discovery(provider: 'google' | 'microsoft', tenant = '') {
    const ends = endpoints();
    const own = ends[provider];
    const multiTenant = ['common', 'organizations', 'consumers'].includes(tenant);
    return {
      issuer: multiTenant ? ends.microsoft.issuerTemplate : own.issuer,
      authorization_endpoint: own.authorizationEndpoint,
      token_endpoint: own.tokenEndpoint,
      jwks_uri: own.jwksUri,
      ...(provider === 'google' ? { revocation_endpoint: ends.google.revocationEndpoint } : {}),
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['pairwise'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    };
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://standin.invalid').pathname;
    const method = request.method ?? 'GET';
    if (path.startsWith('/_standin/')) return control(request, response, path);
    if (path === '/google/o/oauth2/v2/auth' && method === 'GET') return showConsent(setups.google, request, response, path);
    if (path === '/google/o/oauth2/v2/auth/decision' && method === 'POST') return decide(setups.google, request, response);
    if (path === '/google/token' && method === 'POST') return handleToken(setups.google, request, response);
    if (path === '/google/revoke' && method === 'POST') return handleRevoke(setups.google, request, response);
    if (path === '/google/oauth2/v3/certs' && method === 'GET') return sendJson(response, 200, signer.jwks());
    if (path === '/google/.well-known/openid-configuration' && method === 'GET') return sendJson(response, 200, discovery('google'));
    if (path === '/gmail/gmail/v1/users/me/messages/send' && method === 'POST') return gmailSend(api, request, response, false);
    if (path === '/gmail/upload/gmail/v1/users/me/messages/send' && method === 'POST') return gmailSend(api, request, response, true);
    if (path === '/graph/v1.0/me/sendMail' && method === 'POST') return graphSendMail(api, request, response);
    const microsoft = MICROSOFT_PATH.exec(path);
    if (microsoft !== null) {
      const action = microsoft[2];
      if (action === 'oauth2/v2.0/authorize' && method === 'GET') return showConsent(setups.microsoft, request, response, path);
      if (action === 'oauth2/v2.0/authorize/decision' && method === 'POST') return decide(setups.microsoft, request, response);
      if (action === 'oauth2/v2.0/token' && method === 'POST') return handleToken(setups.microsoft, request, response);
      if (action === 'discovery/v2.0/keys' && method === 'GET') return sendJson(response, 200, signer.jwks());
      if (action === 'v2.0/.well-known/openid-configuration' && method === 'GET') return sendJson(response, 200, discovery('microsoft', microsoft[1]));
    }
    request.resume();
    sendJson(response, 404, { error: { code: 404, message: `Not found: ${method} ${path}` } });
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      sendJson(response, 500, { error: { code: 500, message: `Stand-in error: ${error instanceof Error ? error.message : String(error)}` } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setups.google.issuer = `${url}/google`;
  setups.microsoft.issuer = `${url}/microsoft/${tenantId}/v2.0`;

  function endpoints() {
    return {
      google: {
        issuer: setups.google.issuer,
        authorizationEndpoint: `${url}/google/o/oauth2/v2/auth`,
        tokenEndpoint: `${url}/google/token`,
        revocationEndpoint: `${url}/google/revoke`,
        jwksUri: `${url}/google/oauth2/v3/certs`,
        apiBaseUrl: `${url}/gmail`,
      },
      microsoft: {
        issuer: setups.microsoft.issuer,
        issuerTemplate: `${url}/microsoft/{tenantid}/v2.0`,
        tenantId,
        authorizationEndpoint: `${url}/microsoft/common/oauth2/v2.0/authorize`,
        tokenEndpoint: `${url}/microsoft/common/oauth2/v2.0/token`,
        jwksUri: `${url}/microsoft/common/discovery/v2.0/keys`,
        apiBaseUrl: `${url}/graph`,
      },
    };
  }

  return {
    url,
    ...endpoints(),
    messages: () => [...messages],
    revoke: (email) => store.revokeEmail(email),
    failNext: (failing, status, times, retryAfterSeconds) => store.failNext(failing, status, times, retryAfterSeconds),
    expireAccessTokens: () => store.expireAccessTokens(),
    refreshCount: (email) => store.refreshCount(email),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
