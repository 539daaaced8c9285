/**
 * The authorization endpoint: checks a request (client, redirect URI, PKCE S256, state, send scope),
 * shows the consent page, and turns the user's decision into a redirect with a code or access_denied.
 * An unknown client or a redirect URI that is not registered gets an error page, never a redirect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseForm, readBody, redirect, sendHtml } from './http.ts';
import { consentPage, errorPage } from './pages.ts';
import type { Provider, ProviderStore } from './store.ts';

export interface StandinClient {
  clientId: string;
  /** What the consent page calls the application (the client id when left out). */
  name?: string;
  clientSecret?: string;
  /** Web clients: matched exactly. Desktop clients: any http://127.0.0.1:<port>/<path> too (RFC 8252 §7.3). */
  redirectUris?: string[];
  kind: 'web' | 'desktop';
}

export interface StandinAccount {
  email: string;
  name?: string;
}

export interface ProviderSetup {
  provider: Provider;
  clients: StandinClient[];
  account: StandinAccount;
  store: ProviderStore;
}

export const SEND_SCOPES: Record<Provider, readonly string[]> = {
  google: ['https://www.googleapis.com/auth/gmail.send'],
  microsoft: ['Mail.Send', 'https://graph.microsoft.com/Mail.Send'],
};

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

interface AuthorizationRequest {
  client: StandinClient;
  redirectUri: string;
  state: string;
  challenge: string;
  scopes: string[];
  nonce: string | null;
  offline: boolean;
}

type Checked =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; page: { error: string; description: string } }
  | { ok: false; redirectTo: string };

export function redirectAllowed(client: StandinClient, redirectUri: string): boolean {
  if (client.redirectUris?.includes(redirectUri)) return true;
  if (client.kind !== 'desktop') return false;
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  // Loopback IP literal over http, any port, no fragment (RFC 8252 §7.3 and §8.3: not "localhost").
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.hash === '' && url.username === '' && url.password === '';
}

export function withParams(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

function check(setup: ProviderSetup, params: URLSearchParams): Checked {
  const refuse = (error: string, description: string): Checked => ({ ok: false, page: { error, description } });
  const clientId = params.get('client_id') ?? '';
  const client = setup.clients.find((candidate) => candidate.clientId === clientId);
  if (client === undefined) return refuse('invalid_client', `El cliente OAuth «${clientId}» no existe.`);
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!redirectAllowed(client, redirectUri)) return refuse('redirect_uri_mismatch', `La dirección de retorno «${redirectUri}» no está registrada para este cliente.`);
  if (params.get('response_type') !== 'code') return refuse('unsupported_response_type', 'Solo se admite response_type=code.');
  const state = params.get('state') ?? '';
  if (state === '') return refuse('invalid_request', 'Falta el parámetro state.');
  const method = params.get('code_challenge_method');
  const challenge = params.get('code_challenge') ?? '';
  if (method !== 'S256' || !S256_CHALLENGE.test(challenge)) {
    return refuse('invalid_request', 'PKCE es obligatorio: envía code_challenge con code_challenge_method=S256 (plain no se admite).');
  }
  const scopes = (params.get('scope') ?? '').split(' ').filter((scope) => scope !== '');
  if (!scopes.some((scope) => SEND_SCOPES[setup.provider].includes(scope))) {
    const description = `Falta el permiso de envío (${SEND_SCOPES[setup.provider].join(' o ')}).`;
    return { ok: false, redirectTo: withParams(redirectUri, { error: 'invalid_scope', error_description: description, state }) };
  }
  // Google gives installed apps a refresh token always and web apps only with access_type=offline;
  // Microsoft only with offline_access.
  const offline = setup.provider === 'google' ? client.kind === 'desktop' || params.get('access_type') === 'offline' : scopes.includes('offline_access');
  return { ok: true, request: { client, redirectUri, state, challenge, scopes, nonce: params.get('nonce'), offline } };
}

export function showConsent(setup: ProviderSetup, request: IncomingMessage, response: ServerResponse, path: string): void {
  const params = new URL(request.url ?? '/', 'http://standin.invalid').searchParams;
  const checked = check(setup, params);
  if ('redirectTo' in checked) return redirect(response, checked.redirectTo);
  if (!checked.ok) return sendHtml(response, 400, errorPage(setup.provider, checked.page.error, checked.page.description));
  const email = params.get('login_hint') ?? setup.account.email;
  sendHtml(response, 200, consentPage({ provider: setup.provider, action: `${path}/decision`, clientName: checked.request.client.name ?? checked.request.client.clientId, email, scopes: checked.request.scopes, params }));
}

export async function decide(setup: ProviderSetup, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const read = await readBody(request, 64 * 1024);
  if (read.tooLarge) return sendHtml(response, 413, errorPage(setup.provider, 'invalid_request', 'La petición es demasiado grande.'));
  const params = parseForm(read.body);
  // The hidden fields come back from the browser: everything is checked again, as on the first visit.
  const checked = check(setup, params);
  if ('redirectTo' in checked) return redirect(response, checked.redirectTo);
  if (!checked.ok) return sendHtml(response, 400, errorPage(setup.provider, checked.page.error, checked.page.description));
  const { client, redirectUri, state, challenge, scopes, nonce, offline } = checked.request;
  if (params.get('decision') !== 'allow') {
    return redirect(response, withParams(redirectUri, { error: 'access_denied', error_description: 'El usuario ha cancelado la autorización.', state }));
  }
  const email = (params.get('email') ?? '').trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return sendHtml(response, 400, errorPage(setup.provider, 'invalid_request', 'Escribe una dirección de correo válida.'));
  const name = email.toLowerCase() === setup.account.email.toLowerCase() ? (setup.account.name ?? null) : null;
  const code = setup.store.issueCode({ provider: setup.provider, clientId: client.clientId, scopes, email, name, nonce, redirectUri, challenge, offline });
  redirect(response, withParams(redirectUri, { code, state }));
}
