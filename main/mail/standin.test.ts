import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailProviders, type MailProviders } from '../../standins/mail-providers/providers.ts';
import { createMailDesktop, deniedMessage } from './authorize.ts';
import type { MailDesktopSettings } from './types.ts';

/**
 * The whole desktop link against the providers' stand-in (standins/mail-providers/): its consent page
 * played like a browser, its redirect to our loopback listener, and the code redeemed at its token
 * endpoint with the verifier OAuthConnect answers (what the server does with POST /api/mail/oauth/desktop).
 */
let providers: MailProviders;
let settings: MailDesktopSettings;
beforeAll(async () => {
  providers = await startMailProviders({
    google: { clients: [{ clientId: 'google-desktop', clientSecret: 'no-confidencial', kind: 'desktop' }], account: { email: 'asesoria@gmail.test', name: 'Asesoría Pérez' } },
    microsoft: { clients: [{ clientId: 'ms-desktop', kind: 'desktop' }], account: { email: 'asesoria@outlook.test', name: 'Asesoría Pérez' }, tenantId: '11111111-2222-3333-4444-555555555555' },
  });
  settings = {
    google: { authorizationUrl: providers.google.authorizationEndpoint, issuer: providers.google.issuer, clientId: 'google-desktop' },
    microsoft: { authorizationUrl: providers.microsoft.authorizationEndpoint, issuer: providers.microsoft.issuer, clientId: 'ms-desktop' },
  };
});
afterAll(() => providers.close());

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The user's browser: the consent page, the user's decision, then the provider's redirect followed to the loopback. */
function browserDeciding(decision: 'allow' | 'deny', pages: string[]) {
  return async (url: string) => {
    const page = await fetch(url);
    const html = await page.text();
    const form = new URLSearchParams();
    for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) form.set(unescape(match[1] ?? ''), unescape(match[2] ?? ''));
    form.set('email', unescape(/id="email"[^>]*value="([^"]*)"/.exec(html)?.[1] ?? ''));
    form.set('decision', decision);
    const action = new URL(unescape(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? ''), url);
    const redirect = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
    // The browser follows the redirect later, as the user's click would; the opener itself returns at once.
    void fetch(redirect.headers.get('location') ?? '').then(async (answer) => void pages.push(await answer.text()));
  };
}

async function redeem(tokenEndpoint: string, form: Record<string, string>) {
  const response = await fetch(tokenEndpoint, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('OAuthConnect against the providers stand-in', () => {
  it('Google: the code and verifier answered are redeemed by the token endpoint, which checks PKCE', async () => {
    const pages: string[] = [];
    const mail = createMailDesktop({ settings: () => settings, openUrl: browserDeciding('allow', pages) });
    const result = await mail.connect({ provider: 'google', scope: 'sendemail' });
    expect(result.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    const tokens = await redeem(providers.google.tokenEndpoint, {
      grant_type: 'authorization_code',
      code: result.code,
      redirect_uri: result.redirectUri,
      code_verifier: result.codeVerifier,
      client_id: 'google-desktop',
      client_secret: 'no-confidencial',
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    await expect.poll(() => pages.length).toBe(1);
    expect(pages[0]).toContain('Cuenta conectada.');
  });

  it('Microsoft: a wrong verifier is refused by the token endpoint, the right one redeemed', async () => {
    const pages: string[] = [];
    const mail = createMailDesktop({ settings: () => settings, openUrl: browserDeciding('allow', pages) });
    const result = await mail.connect({ provider: 'microsoft', scope: 'sendemail' });
    const form = { grant_type: 'authorization_code', code: result.code, redirect_uri: result.redirectUri, client_id: 'ms-desktop' };
    expect((await redeem(providers.microsoft.tokenEndpoint, { ...form, code_verifier: 'x'.repeat(43) })).status).toBe(400);
    const second = await mail.connect({ provider: 'microsoft', scope: 'sendemail' });
    const tokens = await redeem(providers.microsoft.tokenEndpoint, { ...form, code: second.code, redirect_uri: second.redirectUri, code_verifier: second.codeVerifier });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ refresh_token: expect.any(String) });
  });

  it('the user refuses on the consent page: DENIED', async () => {
    const pages: string[] = [];
    const mail = createMailDesktop({ settings: () => settings, openUrl: browserDeciding('deny', pages) });
    await expect(mail.connect({ provider: 'google', scope: 'sendemail' })).rejects.toMatchObject({ code: 'DENIED', message: deniedMessage('google') });
  });
});
