/**
 * Sign in with Google (issue 40 §5): OpenID Connect authorization code with PKCE (S256), state and
 * nonce, through oauth4webapi as mail linking does (mail/oauth.ts). It only signs in existing
 * accounts: by the Google subject linked before, else by the verified email (then linked). No account
 * is ever made here. No code, verifier, nonce or token goes into an error message or a log line.
 */
import type { Kysely } from 'kysely';
import * as oauth from 'oauth4webapi';
import type { Database } from '../../db/schema.ts';
import type { GoogleSignInConfig } from './google-config.ts';

/** How long a sign-in may take between start and callback. */
export const GOOGLE_SIGN_IN_TTL_MS = 10 * 60_000;

/** Why a Google sign-in was refused: the renderer shows /auth?google=<reason>. */
export type GoogleRefusal = 'not-configured' | 'denied' | 'unverified' | 'no-account' | 'disabled' | 'failed';

export type GoogleSignInResult = { kind: 'signed-in'; userId: string; redirectTo: string } | { kind: 'refused'; reason: GoogleRefusal };

/** Only a path of this site: '/…', never '//host' or '/\host' (which browsers read as another host), no control characters. */
export function safeRedirect(value: string | undefined): string {
  if (!value || value.length > 2_000) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}

/** Plain http only for local stand-ins: exactly when the endpoint is http. */
function transport(endpoint: string): { [oauth.allowInsecureRequests]?: boolean; signal: AbortSignal } {
  return { ...(endpoint.startsWith('http://') && { [oauth.allowInsecureRequests]: true }), signal: AbortSignal.timeout(20_000) };
}

export class GoogleSignIn {
  private readonly server: oauth.AuthorizationServer | null;
  private readonly client: oauth.Client | null;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      now: () => Date;
      config: GoogleSignInConfig | null;
      /** PUBLIC_URL/api/auth/google/callback, registered with Google. */
      redirectUri: string;
      log: { warn(details: object, message: string): void };
    },
  ) {
    const { config } = deps;
    this.server = config
      ? { issuer: config.issuer, authorization_endpoint: config.authorizationEndpoint, token_endpoint: config.tokenEndpoint, jwks_uri: config.jwksUri }
      : null;
    this.client = config ? { client_id: config.clientId } : null;
  }

  get enabled(): boolean {
    return this.server !== null;
  }

  /** Where to send the browser; the state, verifier and nonce are kept ten minutes, for one callback. */
  async start(redirect: string | undefined): Promise<string | null> {
    const { config } = this.deps;
    if (!config) return null;
    const { db, now } = this.deps;
    const state = oauth.generateRandomState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const at = now();
    // Abandoned sign-ins go as new ones start (the table holds ten minutes of them).
    await db.deleteFrom('google_sign_ins').where('expires_at', '<=', at.toISOString()).execute();
    await db
      .insertInto('google_sign_ins')
      .values({ state, code_verifier: codeVerifier, nonce, redirect_to: safeRedirect(redirect), expires_at: new Date(at.getTime() + GOOGLE_SIGN_IN_TTL_MS).toISOString() })
      .execute();
    const url = new URL(config.authorizationEndpoint);
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('redirect_uri', this.deps.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('prompt', 'select_account');
    return url.href;
  }

  /** The sign-in under way with this state, taken once (a second callback with it finds nothing). */
  private async take(state: string): Promise<{ codeVerifier: string; nonce: string; redirectTo: string } | null> {
    const { db, now } = this.deps;
    const row = await db.selectFrom('google_sign_ins').selectAll().where('state', '=', state).executeTakeFirst();
    if (!row) return null;
    const taken = await db.deleteFrom('google_sign_ins').where('state', '=', state).executeTakeFirst();
    // Another callback with the same state won the row, or it is past its ten minutes.
    if (taken.numDeletedRows !== 1n || row.expires_at <= now().toISOString()) return null;
    return { codeVerifier: row.code_verifier, nonce: row.nonce, redirectTo: row.redirect_to };
  }

  /** Google's answer (the callback's query): who signs in, or why not. */
  async callback(query: Record<string, string>): Promise<GoogleSignInResult> {
    const { server, client, deps } = this;
    const { config } = deps;
    if (!server || !client || !config) return { kind: 'refused', reason: 'not-configured' };
    const state = query.state;
    // Ours are base64url (oauth4webapi's random state); anything else was never issued here.
    const pending = typeof state === 'string' && /^[\w-]{1,200}$/.test(state) ? await this.take(state) : null;
    // The user said no on Google's page (or Google refused the request).
    if (typeof query.error === 'string') return { kind: 'refused', reason: query.error === 'access_denied' ? 'denied' : 'failed' };
    if (!pending || typeof state !== 'string') return { kind: 'refused', reason: 'failed' };

    let claims: oauth.IDToken | undefined;
    try {
      const parameters = oauth.validateAuthResponse(server, client, new URLSearchParams(query), state);
      const clientAuth = config.clientSecret ? oauth.ClientSecretPost(config.clientSecret) : oauth.None();
      const response = await oauth.authorizationCodeGrantRequest(server, client, clientAuth, parameters, deps.redirectUri, pending.codeVerifier, transport(config.tokenEndpoint));
      // Checks the id_token's issuer, audience, expiry and nonce.
      const result = await oauth.processAuthorizationCodeResponse(server, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
      // And its signature, with Google's published keys.
      await oauth.validateApplicationLevelSignature(server, response, transport(config.jwksUri));
      claims = oauth.getValidatedIdTokenClaims(result);
    } catch (error) {
      deps.log.warn({ reason: failureReason(error) }, 'Acceso con Google rechazado: la respuesta de Google no es válida');
      return { kind: 'refused', reason: 'failed' };
    }
    if (!claims) return { kind: 'refused', reason: 'failed' };
    // An address Google has not checked could be anyone's: it never opens an account.
    if (claims.email_verified !== true) return { kind: 'refused', reason: 'unverified' };
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email) return { kind: 'refused', reason: 'unverified' };
    return this.signIn(claims.sub, email, pending.redirectTo);
  }

  private async signIn(sub: string, email: string, redirectTo: string): Promise<GoogleSignInResult> {
    const { db } = this.deps;
    const columns = ['id', 'email', 'disabled_at', 'google_sub'] as const;
    const user =
      (await db.selectFrom('users').select(columns).where('google_sub', '=', sub).executeTakeFirst()) ??
      // Addresses are stored lower-case (users/service.ts), as `email` is here.
      (await db.selectFrom('users').select(columns).where('email', '=', email).executeTakeFirst());
    if (!user) return { kind: 'refused', reason: 'no-account' };
    if (user.disabled_at !== null) return { kind: 'refused', reason: 'disabled' };
    if (user.google_sub === null) {
      // Linked once, by the verified email; later sign-ins find the account by Google's subject.
      await db.updateTable('users').set({ google_sub: sub, updated_at: this.deps.now().toISOString() }).where('id', '=', user.id).where('google_sub', 'is', null).execute();
    } else if (user.google_sub !== sub) {
      // The address is linked to another Google account already.
      return { kind: 'refused', reason: 'failed' };
    }
    return { kind: 'signed-in', userId: user.id, redirectTo };
  }
}

/** What went wrong, safe to log (oauth4webapi's codes, never the tokens). */
function failureReason(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return error.error;
  if (error instanceof oauth.OperationProcessingError) return error.code ?? 'invalid_response';
  if (error instanceof oauth.AuthorizationResponseError) return error.error;
  return error instanceof Error ? error.name : 'unknown';
}
