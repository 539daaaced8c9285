/**
 * The stand-in against a standards OAuth client (oauth4webapi, what the app uses): if this passes, the
 * app's code and the stand-in agree on the wire, id_token claims included.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemCode, refreshAccess } from '../../server/modules/mail/oauth.ts';
import { startMailProviders, type MailProviders } from './providers.ts';

let providers: MailProviders;
beforeAll(async () => {
  providers = await startMailProviders({
    google: { clients: [{ clientId: 'g-web', clientSecret: 'g-secret', redirectUris: ['http://localhost:8081/oauth-response'], kind: 'web' }], account: { email: 'Asesoria@Gmail.test' } },
    microsoft: { clients: [{ clientId: 'm-desktop', kind: 'desktop' }], account: { email: 'asesoria@outlook.test', name: 'Asesoría' } },
  });
});
afterAll(() => providers.close());

const insecure = { [oauth.allowInsecureRequests]: true };

async function codeFor(endpoint: string, email: string, clientId: string, redirectUri: string, scope: string, verifier: string, extra: Record<string, string> = {}): Promise<URLSearchParams> {
  const params = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: oauth.generateRandomState(), code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra });
  // The consent form posts the request back with the user's choice, as the page's hidden fields do.
  const decision = await fetch(`${endpoint}/decision`, { method: 'POST', body: new URLSearchParams([...params, ['email', email], ['decision', 'allow']]), redirect: 'manual' });
  const location = new URL(decision.headers.get('location') ?? '');
  expect(location.searchParams.get('state')).toBe(params.get('state'));
  return new URLSearchParams({ code: location.searchParams.get('code') ?? '' });
}

describe('oauth4webapi against the stand-in', () => {
  it('Google web client: code with PKCE, id_token validated, refresh without rotation, revocation', async () => {
    const server: oauth.AuthorizationServer = { issuer: providers.google.issuer, authorization_endpoint: providers.google.authorizationEndpoint, token_endpoint: providers.google.tokenEndpoint, revocation_endpoint: providers.google.revocationEndpoint };
    const client: oauth.Client = { client_id: 'g-web' };
    const auth = oauth.ClientSecretPost('g-secret');
    const verifier = oauth.generateRandomCodeVerifier();
    const redirectUri = 'http://localhost:8081/oauth-response';
    const callback = await codeFor(providers.google.authorizationEndpoint, 'Asesoria@Gmail.test', 'g-web', redirectUri, 'openid email https://www.googleapis.com/auth/gmail.send', verifier, { access_type: 'offline', prompt: 'consent' });
    const parameters = oauth.validateAuthResponse(server, client, callback, oauth.expectNoState);
    const response = await oauth.authorizationCodeGrantRequest(server, client, auth, parameters, redirectUri, verifier, insecure);
    const result = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ iss: providers.google.issuer, aud: 'g-web', email: 'Asesoria@Gmail.test' });
    expect(providers.refreshCount('asesoria@gmail.test')).toBe(0);
    expect(result.refresh_token).toBeDefined();

    const refreshed = await oauth.processRefreshTokenResponse(server, client, await oauth.refreshTokenGrantRequest(server, client, auth, result.refresh_token ?? '', insecure));
    expect(refreshed.refresh_token).toBeUndefined();
    expect(providers.refreshCount('asesoria@gmail.test')).toBe(1);
    await oauth.processRevocationResponse(await oauth.revocationRequest(server, client, auth, result.refresh_token ?? '', insecure));
    const dead = await oauth.refreshTokenGrantRequest(server, client, auth, result.refresh_token ?? '', insecure);
    await expect(oauth.processRefreshTokenResponse(server, client, dead)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('Microsoft public desktop client: per-tenant issuer, rotation, the old refresh token is invalid_grant', async () => {
    const server: oauth.AuthorizationServer = { issuer: providers.microsoft.issuer, authorization_endpoint: providers.microsoft.authorizationEndpoint, token_endpoint: providers.microsoft.tokenEndpoint };
    const client: oauth.Client = { client_id: 'm-desktop' };
    const verifier = oauth.generateRandomCodeVerifier();
    const redirectUri = 'http://127.0.0.1:50123/';
    const callback = await codeFor(providers.microsoft.authorizationEndpoint, 'asesoria@outlook.test', 'm-desktop', redirectUri, 'openid profile email offline_access https://graph.microsoft.com/Mail.Send', verifier);
    const parameters = oauth.validateAuthResponse(server, client, callback, oauth.expectNoState);
    const result = await oauth.processAuthorizationCodeResponse(server, client, await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), parameters, redirectUri, verifier, insecure), { requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ preferred_username: 'asesoria@outlook.test', tid: providers.microsoft.tenantId });

    const first = result.refresh_token ?? '';
    const rotated = await oauth.processRefreshTokenResponse(server, client, await oauth.refreshTokenGrantRequest(server, client, oauth.None(), first, insecure));
    expect(rotated.refresh_token).toBeDefined();
    expect(rotated.refresh_token).not.toBe(first);
    const replay = await oauth.refreshTokenGrantRequest(server, client, oauth.None(), first, insecure);
    await expect(oauth.processRefreshTokenResponse(server, client, replay)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(providers.refreshCount('asesoria@outlook.test')).toBe(1);
  });

  it("the app's own OAuth module links a Microsoft account through the 'common' issuer template", async () => {
    const config = {
      issuer: providers.microsoft.issuerTemplate,
      authorizationEndpoint: providers.microsoft.authorizationEndpoint,
      tokenEndpoint: providers.microsoft.tokenEndpoint,
      revocationEndpoint: null,
      web: null,
      desktop: { clientId: 'm-desktop' },
      apiBaseUrl: providers.microsoft.apiBaseUrl,
    };
    const target = { provider: 'microsoft' as const, config, client: { clientId: 'm-desktop' } };
    const verifier = oauth.generateRandomCodeVerifier();
    const redirectUri = 'http://127.0.0.1:40404/oauth/callback';
    const callback = await codeFor(providers.microsoft.authorizationEndpoint, 'otra@outlook.test', 'm-desktop', redirectUri, 'openid profile email offline_access https://graph.microsoft.com/Mail.Send', verifier);
    const linked = await redeemCode(target, callback.get('code') ?? '', verifier, redirectUri);
    expect(linked.email).toBe('otra@outlook.test');
    const refreshed = await refreshAccess(target, linked.refreshToken);
    expect(refreshed.refreshToken).not.toBe(linked.refreshToken);
    await expect(refreshAccess(target, linked.refreshToken)).rejects.toThrow(/invalid_grant/);
  });
});
