import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_SCOPES } from '#shared/api/mail.ts';
import { buildAuthorizationRequest, expectedIssuer, grantsSending, InvalidGrantError, redeemCode, refreshAccess, revokeToken, OAuthExchangeError, type OAuthTarget } from './oauth.ts';
import { startTestOAuthProvider, TEST_TENANT, type TestOAuthProvider } from './oauth-test-provider.ts';

let provider: TestOAuthProvider;
beforeAll(async () => {
  provider = await startTestOAuthProvider();
});
afterAll(async () => {
  await provider.close();
});

const google = (): OAuthTarget => ({ provider: 'google', config: provider.config.google, client: provider.config.google.web! });
const microsoftDesktop = (): OAuthTarget => ({ provider: 'microsoft', config: provider.config.microsoft, client: provider.config.microsoft.desktop! });
const REDIRECT = 'http://app.test/oauth-response';

/** Follows the authorization URL as a browser would and returns the code it was sent back with. */
async function authorize(authorizationUrl: string): Promise<{ code: string; state: string }> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? '');
  return { code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state') ?? '' };
}

describe('authorization request', () => {
  it('uses PKCE S256 (the challenge is the SHA-256 of the verifier), a random state and the send-only scopes', async () => {
    const first = await buildAuthorizationRequest(google(), REDIRECT, 'ana@asesoria.es');
    const url = new URL(first.authorizationUrl);
    expect(url.origin + url.pathname).toBe(provider.config.google.authorizationEndpoint);
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(first.codeVerifier).digest('base64url'));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(first.state);
    expect(url.searchParams.get('scope')).toBe(MAIL_SCOPES.google.join(' '));
    expect(Object.fromEntries([...url.searchParams].filter(([name]) => ['access_type', 'prompt', 'login_hint', 'redirect_uri', 'client_id', 'response_type'].includes(name)))).toEqual({
      access_type: 'offline', prompt: 'consent', login_hint: 'ana@asesoria.es', redirect_uri: REDIRECT, client_id: 'google-web', response_type: 'code',
    });
    const second = await buildAuthorizationRequest(google(), REDIRECT);
    expect(second.state).not.toBe(first.state);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
    expect(first.state.length).toBeGreaterThanOrEqual(16);
  });

  it('asks Microsoft without Google-only parameters', async () => {
    const url = new URL((await buildAuthorizationRequest(microsoftDesktop(), 'http://127.0.0.1:4567/callback')).authorizationUrl);
    expect(url.searchParams.get('access_type')).toBeNull();
    expect(url.searchParams.get('prompt')).toBeNull();
    expect(url.searchParams.get('scope')).toContain('offline_access');
  });
});

describe('code redemption, refresh and revocation', () => {
  it('redeems a Google code with its verifier and reads the address from the id_token', async () => {
    const request = await buildAuthorizationRequest(google(), REDIRECT, 'Ana@Asesoria.es');
    const { code } = await authorize(request.authorizationUrl);
    const granted = await redeemCode(google(), code, request.codeVerifier, REDIRECT);
    expect(granted.email).toBe('ana@asesoria.es');
    expect(granted.refreshToken).toMatch(/^rt-/);
    expect(granted.expiresIn).toBe(3600);
    // A code is single use.
    await expect(redeemCode(google(), code, request.codeVerifier, REDIRECT)).rejects.toBeInstanceOf(InvalidGrantError);
  });

  it('turns a wrong verifier into InvalidGrantError, with no secret in its message', async () => {
    const request = await buildAuthorizationRequest(google(), REDIRECT);
    const { code } = await authorize(request.authorizationUrl);
    const error: unknown = await redeemCode(google(), code, `${request.codeVerifier.slice(0, -1)}x`, REDIRECT).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidGrantError);
    expect(String((error as Error).message)).not.toContain(code);
  });

  it("accepts Microsoft's per-tenant issuer through the {tenantid} template, and rotates its refresh token", async () => {
    const redirect = 'http://127.0.0.1:4567/callback';
    const request = await buildAuthorizationRequest(microsoftDesktop(), redirect, 'luis@contoso.com');
    const { code } = await authorize(request.authorizationUrl);
    const granted = await redeemCode(microsoftDesktop(), code, request.codeVerifier, redirect);
    expect(granted.email).toBe('luis@contoso.com');
    const refreshed = await refreshAccess(microsoftDesktop(), granted.refreshToken);
    expect(refreshed.refreshToken).toMatch(/^rt-/);
    expect(refreshed.refreshToken).not.toBe(granted.refreshToken);
    await expect(refreshAccess(microsoftDesktop(), granted.refreshToken)).rejects.toBeInstanceOf(InvalidGrantError);
  });

  it('refuses an id_token from an issuer the configuration does not name', async () => {
    const request = await buildAuthorizationRequest(microsoftDesktop(), 'http://127.0.0.1:4567/cb');
    const { code } = await authorize(request.authorizationUrl);
    const wrongIssuer: OAuthTarget = { ...microsoftDesktop(), config: { ...provider.config.microsoft, issuer: `${provider.baseUrl}/otro/{tenantid}/v2.0` } };
    await expect(redeemCode(wrongIssuer, code, request.codeVerifier, 'http://127.0.0.1:4567/cb')).rejects.toBeInstanceOf(OAuthExchangeError);
  });

  it('keeps Google refresh tokens (no rotation) and revokes them', async () => {
    const request = await buildAuthorizationRequest(google(), REDIRECT);
    const { code } = await authorize(request.authorizationUrl);
    const granted = await redeemCode(google(), code, request.codeVerifier, REDIRECT);
    const refreshed = await refreshAccess(google(), granted.refreshToken);
    expect(refreshed.refreshToken).toBeNull();
    expect(refreshed.accessToken).not.toBe(granted.accessToken);
    expect(await revokeToken(google(), granted.refreshToken)).toBe(true);
    expect(provider.revoked).toContain(granted.refreshToken);
    await expect(refreshAccess(google(), granted.refreshToken)).rejects.toBeInstanceOf(InvalidGrantError);
    expect(await revokeToken(microsoftDesktop(), 'x')).toBe(false);
  });
});

describe('expectedIssuer', () => {
  const template = 'https://login.microsoftonline.com/{tenantid}/v2.0';
  it("gives the token's own tenant issuer only when iss is that and tid is a GUID", () => {
    const iss = `https://login.microsoftonline.com/${TEST_TENANT}/v2.0`;
    expect(expectedIssuer(template, { iss, tid: TEST_TENANT })).toBe(iss);
    expect(expectedIssuer(template, { iss, tid: '00000000-0000-0000-0000-000000000001' })).toBe(template);
    expect(expectedIssuer(template, { iss: 'https://evil.example/x/v2.0', tid: 'x' })).toBe(template);
    expect(expectedIssuer(template, { iss })).toBe(template);
    expect(expectedIssuer('https://accounts.google.com', { iss: 'https://accounts.google.com' })).toBe('https://accounts.google.com');
  });
});

describe('grantsSending', () => {
  it('needs the send scope where the provider said which scopes it granted', () => {
    expect(grantsSending('google', 'openid email https://www.googleapis.com/auth/gmail.send')).toBe(true);
    expect(grantsSending('google', 'openid email')).toBe(false);
    expect(grantsSending('microsoft', 'Mail.Send openid profile')).toBe(true);
    expect(grantsSending('microsoft', 'openid profile offline_access')).toBe(false);
    expect(grantsSending('google', null)).toBe(true);
  });
});
