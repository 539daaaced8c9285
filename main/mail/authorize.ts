import * as oauth from 'oauth4webapi';
import { MAIL_SCOPES, type MailProvider } from '#shared/api/mail.ts';
import { BridgeFailure } from '../bridge/failure.ts';
import { listenOnLoopback, type LoopbackAnswer, type LoopbackListener } from './loopback.ts';
import { connectedPage, failedPage, NOT_THIS_CONNECTION_MESSAGE } from './page.ts';
import type { MailDesktop, MailDesktopSettings, MailProviderDesktopSettings, OAuthConnectArgs, OAuthConnectResult, UrlOpener } from './types.ts';

export const CONNECT_TIMEOUT_MS = 5 * 60_000;

const PROVIDER_LABEL: Record<MailProvider, string> = { google: 'Google', microsoft: 'Microsoft' };

export const notConfiguredMessage = (provider: MailProvider) => `Esta instalación no tiene configurada la conexión con ${PROVIDER_LABEL[provider]}.`;
export const deniedMessage = (provider: MailProvider) => `Has cancelado la conexión con ${PROVIDER_LABEL[provider]}.`;
export const TIMEOUT_MESSAGE = 'No se ha completado la conexión en 5 minutos. Vuelve a intentarlo.';
export const SUPERSEDED_MESSAGE = 'Se ha iniciado otra conexión.';

export interface MailDesktopOptions {
  /** Read on every connect, so a changed environment or settings file needs no restart. */
  settings: () => MailDesktopSettings;
  openUrl: UrlOpener;
  /** 5 minutes; shorter in tests. */
  timeoutMs?: number;
}

/**
 * OAuthConnect's work (RFC 8252 §7.3, RFC 7636): PKCE S256 and a random state from oauth4webapi, the
 * answer on a loopback listener checked with its validateAuthResponse. Only the code and its verifier
 * leave here; the server redeems them and holds the tokens (see types.ts for why the PC keeps none).
 */
export function createMailDesktop(options: MailDesktopOptions): MailDesktop {
  const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS;
  let current: Round | null = null;
  return {
    async connect(args) {
      const config = providerSettings(options.settings, args.provider, args.client);
      // One connect at a time: the newer one wins (the user clicked again, or closed the old tab).
      current?.cancel(new BridgeFailure('FAILED', SUPERSEDED_MESSAGE));
      const round = startRound(args, config, options.openUrl, timeoutMs);
      current = round;
      try {
        return await round.result;
      } finally {
        if (current === round) current = null;
      }
    },
  };
}

function providerSettings(read: () => MailDesktopSettings, provider: MailProvider, announced: OAuthConnectArgs['client']): MailProviderDesktopSettings & { clientId: string } {
  let all: MailDesktopSettings;
  try {
    all = read();
  } catch (error) {
    throw new BridgeFailure('UNAVAILABLE', error instanceof Error ? error.message : String(error));
  }
  const config = all[provider];
  // This PC's own settings first (a developer's stand-in), else what the server announces for its desktop client.
  if (config.clientId) return { ...config, clientId: config.clientId };
  if (!announced) throw new BridgeFailure('UNAVAILABLE', notConfiguredMessage(provider));
  if (!isAcceptedAuthorizationUrl(announced.authorizationUrl)) {
    throw new BridgeFailure('UNAVAILABLE', `La dirección de autorización de ${PROVIDER_LABEL[provider]} que indica el servidor no es https://.`);
  }
  return { authorizationUrl: announced.authorizationUrl, issuer: announced.issuer, clientId: announced.clientId };
}

/** https anywhere; http only to this machine (a local stand-in), never elsewhere in clear. */
function isAcceptedAuthorizationUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

interface Round {
  result: Promise<OAuthConnectResult>;
  cancel(reason: BridgeFailure): void;
}

/** The provider's authorization request (RFC 6749 §4.1.1 + PKCE), with Google's offline access. */
export function authorizationUrl(
  args: OAuthConnectArgs,
  config: MailProviderDesktopSettings & { clientId: string },
  request: { redirectUri: string; state: string; codeChallenge: string },
): URL {
  const url = new URL(config.authorizationUrl);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('scope', MAIL_SCOPES[args.provider].join(' '));
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', request.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (args.provider === 'google') {
    // Google gives a refresh token only with offline access, and again on a re-link only with consent.
    url.searchParams.set('access_type', 'offline');
    url.searchParams.set('prompt', args.prompt ?? 'consent');
  } else if (args.prompt) {
    url.searchParams.set('prompt', args.prompt);
  }
  if (args.loginHint) url.searchParams.set('login_hint', args.loginHint);
  // Only a web address reaches the browser (http is allowed only where settings or the server's answer allowed it).
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BridgeFailure('UNAVAILABLE', `La dirección de autorización de ${PROVIDER_LABEL[args.provider]} debe ser https://.`);
  }
  return url;
}

function startRound(args: OAuthConnectArgs, config: MailProviderDesktopSettings & { clientId: string }, openUrl: UrlOpener, timeoutMs: number): Round {
  const provider = args.provider;
  const client: oauth.Client = { client_id: config.clientId };
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  let listener: LoopbackListener | null = null;
  let settled = false;
  let resolveResult!: (value: OAuthConnectResult) => void;
  let rejectResult!: (reason: BridgeFailure) => void;
  const result = new Promise<OAuthConnectResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });

  /** Every ending goes through here: the timer stops and the listener closes, whatever the outcome. */
  const finish = (outcome: OAuthConnectResult | BridgeFailure): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    void listener?.close();
    if (outcome instanceof BridgeFailure) rejectResult(outcome);
    else resolveResult(outcome);
  };
  const timer = setTimeout(() => finish(new BridgeFailure('TIMEOUT', TIMEOUT_MESSAGE)), timeoutMs);
  /** A refusal that ends this round: the browser is told why, the bridge call fails with it. */
  const fail = (failure: BridgeFailure): LoopbackAnswer => {
    finish(failure);
    return { status: 400, page: failedPage(failure.message) };
  };

  const handle = (params: URLSearchParams): LoopbackAnswer => {
    if (settled || !listener) return { status: 400, page: failedPage(NOT_THIS_CONNECTION_MESSAGE) };
    let valid: URLSearchParams;
    try {
      const as: oauth.AuthorizationServer = { issuer: expectedIssuer(config.issuer, params.get('iss')), authorization_endpoint: config.authorizationUrl };
      valid = oauth.validateAuthResponse(as, client, params, state);
    } catch (error) {
      // The state is checked before the error: an AuthorizationResponseError is this round's answer.
      if (error instanceof oauth.AuthorizationResponseError) {
        return fail(
          error.error === 'access_denied'
            ? new BridgeFailure('DENIED', deniedMessage(provider))
            : new BridgeFailure('FAILED', `${PROVIDER_LABEL[provider]} no ha autorizado la conexión: ${describeProviderError(error)}`),
        );
      }
      // Another tab, an old link or a forged request: answered, but the real one is still awaited.
      if (params.get('state') !== state) return { status: 400, page: failedPage(NOT_THIS_CONNECTION_MESSAGE) };
      return fail(new BridgeFailure('FAILED', `La respuesta de ${PROVIDER_LABEL[provider]} no es válida (emisor o parámetros inesperados). Vuelve a intentarlo.`));
    }
    const code = valid.get('code');
    if (!code) return fail(new BridgeFailure('FAILED', `${PROVIDER_LABEL[provider]} no ha devuelto el código de autorización.`));
    finish({ provider, code, codeVerifier, redirectUri: listener.redirectUri });
    return { status: 200, page: connectedPage() };
  };

  void (async () => {
    const codeChallenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
    const opened = await listenOnLoopback(handle);
    if (settled) return void opened.close();
    listener = opened;
    const url = authorizationUrl(args, config, { redirectUri: opened.redirectUri, state, codeChallenge });
    try {
      await openUrl(url.href);
    } catch (error) {
      throw error instanceof BridgeFailure ? error : new BridgeFailure('FAILED', `No se ha podido abrir el navegador: ${error instanceof Error ? error.message : String(error)}`);
    }
  })().catch((error: unknown) => {
    finish(error instanceof BridgeFailure ? error : new BridgeFailure('FAILED', `No se ha podido esperar la respuesta de ${PROVIDER_LABEL[provider]}: ${error instanceof Error ? error.message : String(error)}`));
  });

  return { result, cancel: finish };
}

const TENANT_PLACEHOLDER = '{tenantid}';

/**
 * The issuer to check `iss` against (RFC 9207). Microsoft's 'common' authority has one per tenant,
 * configured as a template: an `iss` that fills it with a tenant id (a GUID) is the expected one.
 */
export function expectedIssuer(configured: string, iss: string | null): string {
  if (!configured.includes(TENANT_PLACEHOLDER) || iss === null) return configured;
  const [before, after] = configured.split(TENANT_PLACEHOLDER) as [string, string];
  const tenant = iss.startsWith(before) && iss.endsWith(after) ? iss.slice(before.length, iss.length - after.length) : '';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(tenant) ? iss : configured;
}

/** The provider's own words (error_description), bounded; the code when it gives none. */
function describeProviderError(error: oauth.AuthorizationResponseError): string {
  const text = (error.error_description || error.error).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
