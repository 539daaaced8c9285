import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAIL_SCOPES } from '#shared/api/mail.ts';
import { bridgeCommands } from '#shared/bridge/contract.ts';
import { createMailDesktop, deniedMessage, notConfiguredMessage, SUPERSEDED_MESSAGE, TIMEOUT_MESSAGE } from '../mail/authorize.ts';
import { CONNECTED_PAGE_MESSAGE } from '../mail/page.ts';
import type { MailDesktopSettings } from '../mail/types.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const SETTINGS: MailDesktopSettings = {
  google: { authorizationUrl: 'https://accounts.example/o/oauth2/v2/auth', issuer: 'https://accounts.example', clientId: 'desktop-google.apps' },
  microsoft: { authorizationUrl: 'https://login.example/common/oauth2/v2.0/authorize', issuer: 'https://login.example/common/v2.0', clientId: 'desktop-microsoft' },
};

/** The browser's part: the opener receives the authorization URL; the test decides when and how the provider answers. */
function browser() {
  const opened: URL[] = [];
  let notify: (() => void) | null = null;
  return {
    opened,
    openUrl: async (url: string) => {
      opened.push(new URL(url));
      notify?.();
    },
    /** Resolves with the n-th opened URL (1-based) once it has been opened. */
    async nth(n: number): Promise<URL> {
      while (opened.length < n) await new Promise<void>((resolve) => (notify = resolve));
      return opened[n - 1]!;
    },
  };
}

/** Calls the redirect URI as the browser would after the provider's answer. */
async function answer(url: URL, params: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }> {
  const redirect = new URL(url.searchParams.get('redirect_uri')!);
  for (const [key, value] of Object.entries(params)) redirect.searchParams.set(key, value);
  const response = await fetch(redirect);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

function setup(options: { settings?: MailDesktopSettings; timeoutMs?: number } = {}) {
  const fake = browser();
  const mail = createMailDesktop({ settings: () => options.settings ?? SETTINGS, openUrl: fake.openUrl, timeoutMs: options.timeoutMs ?? 10_000 });
  return { fake, ctx: fakeContext({ mail }) };
}

async function refused(redirectUri: string): Promise<boolean> {
  return fetch(redirectUri).then(
    () => false,
    (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
  );
}

describe('OAuthConnect', () => {
  it('a full loopback round: PKCE S256, state, scopes and Google offline access; answers the code and verifier, then stops listening', async () => {
    const { fake, ctx } = setup();
    const pending = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail', loginHint: 'ana@asesoria.example' }, ctx);
    const url = await fake.nth(1);
    expect(url.origin + url.pathname).toBe(SETTINGS.google.authorizationUrl);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: 'desktop-google.apps',
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: MAIL_SCOPES.google.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      login_hint: 'ana@asesoria.example',
    });
    expect(query.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d{2,5}\/oauth\/callback$/);
    expect(query.state!.length).toBeGreaterThanOrEqual(32);

    const page = await answer(url, { code: '4/0Abc-code', state: query.state!, iss: 'https://accounts.example' });
    expect(page.status).toBe(200);
    expect(page.text).toContain(CONNECTED_PAGE_MESSAGE);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');

    const envelope = await pending;
    expect(envelope).toMatchObject({ ok: true, data: { provider: 'google', code: '4/0Abc-code', redirectUri: query.redirect_uri } });
    const data = (envelope as { data: { codeVerifier: string } }).data;
    expect(bridgeCommands.OAuthConnect.result.safeParse((envelope as { data: unknown }).data).success).toBe(true);
    // The challenge sent was S256 of the verifier answered (RFC 7636 §4.2), computed here independently.
    expect(createHash('sha256').update(data.codeVerifier).digest('base64url')).toBe(query.code_challenge);
    expect(await refused(query.redirect_uri!)).toBe(true);
  });

  it('Microsoft: its scopes, no prompt unless asked, the one asked for when given', async () => {
    const { fake, ctx } = setup();
    const first = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    expect(url.searchParams.get('scope')).toBe(MAIL_SCOPES.microsoft.join(' '));
    expect(url.searchParams.get('client_id')).toBe('desktop-microsoft');
    expect(url.searchParams.has('prompt')).toBe(false);
    expect(url.searchParams.has('access_type')).toBe(false);
    await answer(url, { code: 'M.C5_code', state: url.searchParams.get('state')! });
    expect(await first).toMatchObject({ ok: true, data: { provider: 'microsoft', code: 'M.C5_code' } });

    const second = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail', prompt: 'select_account' }, ctx);
    const again = await fake.nth(2);
    expect(again.searchParams.get('prompt')).toBe('select_account');
    expect(again.searchParams.get('state')).not.toBe(url.searchParams.get('state'));
    await answer(again, { code: 'M.C5_other', state: again.searchParams.get('state')! });
    expect(await second).toMatchObject({ ok: true, data: { code: 'M.C5_other' } });
  });

  it('a wrong state, a wrong path or a forged error get 400 and do not end the wait', async () => {
    const { fake, ctx } = setup();
    const pending = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    const state = url.searchParams.get('state')!;
    expect((await answer(url, { code: 'stolen', state: 'not-the-state' })).status).toBe(400);
    expect((await answer(url, { error: 'access_denied', state: 'not-the-state' })).status).toBe(400);
    expect((await answer(url, { code: 'no-state' })).status).toBe(400);
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    expect((await fetch(new URL(`/favicon.ico?state=${state}&code=x`, redirect))).status).toBe(400);
    expect((await fetch(redirect, { method: 'POST', body: `state=${state}&code=x` })).status).toBe(400);

    expect((await answer(url, { code: 'the-real-one', state })).status).toBe(200);
    expect(await pending).toMatchObject({ ok: true, data: { code: 'the-real-one' } });
  });

  it('the user refuses at the provider: DENIED, with the page saying so, and the listener closed', async () => {
    const { fake, ctx } = setup();
    const pending = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    const page = await answer(url, { error: 'access_denied', state: url.searchParams.get('state')! });
    expect(page.text).toContain('Has cancelado la conexión con Google.');
    expect(await pending).toEqual({ ok: false, error: { code: 'DENIED', message: deniedMessage('google') } });
    expect(await refused(url.searchParams.get('redirect_uri')!)).toBe(true);
  });

  it('another provider error: FAILED with its description', async () => {
    const { fake, ctx } = setup();
    const pending = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    await answer(url, { error: 'invalid_request', error_description: 'AADSTS50011: The redirect URI does not match.', state: url.searchParams.get('state')! });
    expect(await pending).toEqual({ ok: false, error: { code: 'FAILED', message: 'Microsoft no ha autorizado la conexión: AADSTS50011: The redirect URI does not match.' } });
  });

  it('an answer with the right state from another issuer is refused (RFC 9207)', async () => {
    const { fake, ctx } = setup();
    const pending = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    expect((await answer(url, { code: 'c', state: url.searchParams.get('state')!, iss: 'https://evil.example' })).status).toBe(400);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'FAILED' } });
  });

  it("Microsoft's per-tenant issuer template: an iss naming a tenant is this provider's", async () => {
    const { fake, ctx } = setup({ settings: { ...SETTINGS, microsoft: { ...SETTINGS.microsoft, issuer: 'https://login.example/{tenantid}/v2.0' } } });
    const pending = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    const state = url.searchParams.get('state')!;
    await answer(url, { code: 'M.tenant', state, iss: 'https://login.example/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0' });
    expect(await pending).toMatchObject({ ok: true, data: { code: 'M.tenant' } });
  });

  it('nobody answers: TIMEOUT, and the listener is closed', async () => {
    const { fake, ctx } = setup({ timeoutMs: 150 });
    const pending = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx);
    const url = await fake.nth(1);
    expect(await pending).toEqual({ ok: false, error: { code: 'TIMEOUT', message: TIMEOUT_MESSAGE } });
    expect(await refused(url.searchParams.get('redirect_uri')!)).toBe(true);
  });

  it('a second connect cancels the first, whose late answer is no longer heard', async () => {
    const { fake, ctx } = setup();
    const first = dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx);
    const firstUrl = await fake.nth(1);
    const second = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail' }, ctx);
    expect(await first).toEqual({ ok: false, error: { code: 'FAILED', message: SUPERSEDED_MESSAGE } });
    const secondUrl = await fake.nth(2);
    expect(await refused(firstUrl.searchParams.get('redirect_uri')!)).toBe(true);
    await answer(secondUrl, { code: 'second', state: secondUrl.searchParams.get('state')! });
    expect(await second).toMatchObject({ ok: true, data: { provider: 'microsoft', code: 'second' } });
  });

  it('a provider without a desktop client id: UNAVAILABLE, and no browser opened', async () => {
    const { fake, ctx } = setup({ settings: { ...SETTINGS, google: { ...SETTINGS.google, clientId: null } } });
    expect(await dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, ctx)).toEqual({ ok: false, error: { code: 'UNAVAILABLE', message: notConfiguredMessage('google') } });
    expect(notConfiguredMessage('google')).toBe('Esta instalación no tiene configurada la conexión con Google.');
    expect(fake.opened).toEqual([]);
  });

  it('without a client id of its own, uses the desktop client the server announces; refuses one announced in clear http to another host', async () => {
    const { fake, ctx } = setup({ settings: { ...SETTINGS, microsoft: { ...SETTINGS.microsoft, clientId: null } } });
    const client = { authorizationUrl: 'https://login.example/common/oauth2/v2.0/authorize', issuer: 'https://login.example/{tenantid}/v2.0', clientId: 'announced-desktop' };
    const pending = dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail', client }, ctx);
    const url = await fake.nth(1);
    expect(url.origin + url.pathname).toBe(client.authorizationUrl);
    expect(url.searchParams.get('client_id')).toBe('announced-desktop');
    await answer(url, { code: 'announced-code', state: url.searchParams.get('state')! });
    expect(await pending).toMatchObject({ ok: true, data: { provider: 'microsoft', code: 'announced-code' } });

    const clear = { ...client, authorizationUrl: 'http://login.example/authorize' };
    expect(await dispatch('OAuthConnect', { provider: 'microsoft', scope: 'sendemail', client: clear }, ctx)).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(fake.opened).toHaveLength(1);
  });

  it('the browser cannot be opened: FAILED, and the listener is closed', async () => {
    const tried: URL[] = [];
    const mail = createMailDesktop({
      settings: () => SETTINGS,
      openUrl: async (url) => {
        tried.push(new URL(url));
        throw new Error('no hay navegador');
      },
    });
    expect(await dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail' }, fakeContext({ mail }))).toEqual({
      ok: false,
      error: { code: 'FAILED', message: 'No se ha podido abrir el navegador: no hay navegador' },
    });
    expect(await refused(tried[0]!.searchParams.get('redirect_uri')!)).toBe(true);
  });

  it('bad arguments are refused by the contract before anything opens', async () => {
    const { fake, ctx } = setup();
    expect(await dispatch('OAuthConnect', { provider: 'yahoo', scope: 'sendemail' }, ctx)).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(await dispatch('OAuthConnect', { provider: 'google', scope: 'readmail' }, ctx)).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(await dispatch('OAuthConnect', { provider: 'google', scope: 'sendemail', loginHint: 'no-es-un-correo' }, ctx)).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(fake.opened).toEqual([]);
  });
});
