/**
 * Test support: a small Google OpenID Connect provider over real HTTP (127.0.0.1, an ephemeral port),
 * so Sign in with Google is tested through oauth4webapi against the wire. /authorize redirects back
 * with a code for the person the test chose; /token checks the client, the redirect URI and the PKCE
 * verifier and issues an RS256 id_token with the request's nonce and `email_verified`; /jwks publishes
 * the signing key. Not product code.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readForm, sendJson as json, signedIdToken } from '../../test/oauth-standin-http.ts';
import type { GoogleSignInConfig } from './google-config.ts';

export const TEST_GOOGLE_CLIENT = { clientId: 'google-signin-web', clientSecret: 'google-signin-secret' } as const;

/** Who signs in on the stand-in's page next, and what its id_token says. */
export interface GoogleTestPerson {
  email: string;
  emailVerified: boolean;
  /** Google's subject id; by default derived from the email. */
  sub?: string;
}

export interface GoogleTestProvider {
  baseUrl: string;
  config: GoogleSignInConfig;
  /** The person the next /authorize signs in. */
  signInAs(person: GoogleTestPerson): void;
  /** The next id_token carries this nonce instead of the request's (a replayed or forged token). */
  forgeNextNonce(nonce: string): void;
  /** The next id_token is signed with a key the provider does not publish. */
  forgeNextSignature(): void;
  /** The next /authorize answers as a user who refused consent (error=access_denied). */
  denyNext(): void;
  close(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  person: GoogleTestPerson;
}

const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KID = 'google-test';

const idToken = (claims: Record<string, unknown>, key: typeof signingKey.privateKey): string => signedIdToken(claims, key, KID);

export const subOf = (email: string): string => createHash('sha256').update(`google:${email}`).digest('hex').slice(0, 21);

export async function startGoogleTestProvider(): Promise<GoogleTestProvider> {
  const codes = new Map<string, IssuedCode>();
  let person: GoogleTestPerson = { email: 'usuario@gmail.test', emailVerified: true };
  let forgedNonce: string | null = null;
  let forgeSignature = false;
  let deny = false;
  let baseUrl = '';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', baseUrl);
    if (url.pathname === '/jwks' && request.method === 'GET') {
      return json(response, 200, { keys: [{ ...signingKey.publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' }] });
    }
    if (url.pathname === '/authorize' && request.method === 'GET') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (deny) {
        deny = false;
        redirect.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          clientId: url.searchParams.get('client_id') ?? '',
          redirectUri: url.searchParams.get('redirect_uri') ?? '',
          challenge: url.searchParams.get('code_challenge_method') === 'S256' ? (url.searchParams.get('code_challenge') ?? '') : '',
          nonce: url.searchParams.get('nonce'),
          person,
        });
        redirect.searchParams.set('code', code);
      }
      response.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (url.pathname !== '/token' || request.method !== 'POST') return json(response, 404, { error: 'not_found' });
    const form = await readForm(request);
    if (form.get('client_id') !== TEST_GOOGLE_CLIENT.clientId || form.get('client_secret') !== TEST_GOOGLE_CLIENT.clientSecret) return json(response, 401, { error: 'invalid_client' });
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
    if (form.get('grant_type') !== 'authorization_code' || !code || code.redirectUri !== form.get('redirect_uri') || code.challenge !== challenge) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'code, redirect_uri or code_verifier do not match' });
    }
    const now = Math.floor(Date.now() / 1000);
    const nonce = forgedNonce ?? code.nonce;
    forgedNonce = null;
    const key = forgeSignature ? foreignKey.privateKey : signingKey.privateKey;
    forgeSignature = false;
    const claims = {
      iss: baseUrl,
      aud: code.clientId,
      azp: code.clientId,
      sub: code.person.sub ?? subOf(code.person.email),
      email: code.person.email,
      email_verified: code.person.emailVerified,
      iat: now,
      exp: now + 3600,
      ...(nonce !== null && { nonce }),
    };
    return json(response, 200, { access_token: `at-${randomBytes(12).toString('hex')}`, token_type: 'Bearer', expires_in: 3600, scope: 'openid email profile', id_token: idToken(claims, key) });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { error: 'server_error', error_description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    config: { ...TEST_GOOGLE_CLIENT, issuer: baseUrl, authorizationEndpoint: `${baseUrl}/authorize`, tokenEndpoint: `${baseUrl}/token`, jwksUri: `${baseUrl}/jwks` },
    signInAs(next) {
      person = next;
    },
    forgeNextNonce(nonce) {
      forgedNonce = nonce;
    },
    forgeNextSignature() {
      forgeSignature = true;
    },
    denyNext() {
      deny = true;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
