import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, MAIL_ACCOUNT_NOT_FOUND_MESSAGE, mailPaths, OAUTH_DENIED_MESSAGE, OAUTH_EXCHANGE_FAILED_MESSAGE, OAUTH_STATE_INVALID_MESSAGE,
  type MailAccount,
} from '#shared/api/mail.ts';
import { pathFor } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { NoticeEmail } from '../../mail/mailer.ts';
import { secretsBoxWithKey } from '../../security/secrets.ts';
import { registerUser, startTestServer, testDatabaseKind, type CookieJar, type TestServer } from '../../test/harness.ts';
import { registerColleague } from '../machines/test-support.ts';
import { MailAccounts } from './accounts.ts';
import { startTestOAuthProvider, type TestOAuthProvider } from './oauth-test-provider.ts';
import { MailAccountUnusableError } from './types.ts';

const KEY = randomBytes(32);
let provider: TestOAuthProvider;
let server: TestServer;
let db: ReturnType<typeof connectDatabase>;
let clock: Date;
let ana: CookieJar;
let notices: NoticeEmail[];
let accounts: MailAccounts;

beforeAll(async () => {
  provider = await startTestOAuthProvider();
});
afterAll(async () => {
  await provider.close();
});

beforeEach(async () => {
  clock = new Date('2026-11-27T09:00:00Z');
  provider.setExpiresIn(3600);
  provider.setRefreshDelay(0);
  provider.setGrantedScope(null);
  server = await startTestServer({ now: () => clock, mail: provider.config, secrets: { key: KEY.toString('base64') }, scheduleRunnerIntervalMs: 0 });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  notices = [];
  accounts = seam();
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

/** The seam as the outbox uses it: same database and key as the server, a mailer that keeps what it was given. */
function seam(): MailAccounts {
  return new MailAccounts({
    db,
    now: () => clock,
    secrets: secretsBoxWithKey(KEY),
    providers: provider.config,
    publicUrl: 'http://app.test',
    mailer: { configured: true, sendLink: async () => undefined, sendMessage: async () => undefined, sendNotice: async (notice) => void notices.push(notice) },
    log: server.app.log,
    rowLocks: testDatabaseKind === 'postgres',
  });
}

/** What the browser does: start, go to the provider, come back to /oauth-response with code and state. */
async function authorizeWeb(jar: CookieJar, body: Record<string, unknown>): Promise<{ state: string; code: string }> {
  const started = await jar.post(mailPaths.oauthStart, body);
  expect(started.statusCode).toBe(200);
  const { authorizationUrl } = started.json<{ authorizationUrl: string }>();
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const back = new URL(response.headers.get('location') ?? '');
  expect(back.origin + back.pathname).toBe('http://app.test/oauth-response');
  return { state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '' };
}

async function linkWeb(jar: CookieJar, provider: 'google' | 'microsoft', email: string): Promise<MailAccount> {
  const { state, code } = await authorizeWeb(jar, { provider, loginHint: email });
  const completed = await jar.post(mailPaths.oauthComplete, { state, code });
  expect(completed.statusCode, completed.body).toBe(201);
  return completed.json<MailAccount>();
}

async function storedAccount(id: string) {
  return db.selectFrom('mail_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function mentionsAnyToken(text: string): boolean {
  return provider.issuedTokens.some((token) => text.includes(token));
}

describe('linking on the web', () => {
  it('starts, completes and lists the account; no token in the answers, the log or the raw columns', async () => {
    const account = await linkWeb(ana, 'google', 'Oficina@Asesoria.es');
    expect(account).toMatchObject({ provider: 'google', email: 'oficina@asesoria.es', status: 'linked', problem: null, mine: true, linkedBy: { name: 'Ana Pérez', email: 'ana@asesoria.es' }, lastUsedAt: null });
    const listed = await ana.get(mailPaths.accounts);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ items: [account] });
    expect(listed.body).not.toMatch(/token/i);
    expect(mentionsAnyToken(listed.body)).toBe(false);

    const row = await storedAccount(account._id);
    expect(row.refresh_token).toMatch(/^gcm1:/);
    expect(row.access_token).toMatch(/^gcm1:/);
    expect(mentionsAnyToken(JSON.stringify(row))).toBe(false);
    expect(row.client_kind).toBe('web');
    expect(server.countRows('mail_oauth_states')).toBe(0);
    expect(mentionsAnyToken(JSON.stringify(server.logLines()))).toBe(false);
  });

  it('refuses an unknown, expired, reused or another user\'s state (400, nothing written)', async () => {
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const refused = async (jar: CookieJar, body: Record<string, unknown>) => {
      const response = await jar.post(mailPaths.oauthComplete, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'OAUTH_STATE_INVALID', message: OAUTH_STATE_INVALID_MESSAGE });
    };
    const { state, code } = await authorizeWeb(ana, { provider: 'google' });
    await refused(ana, { state: 'x'.repeat(43), code });
    await refused(luis, { state, code });
    // Another user's attempt leaves the state to its owner.
    expect(server.countRows('mail_oauth_states')).toBe(1);
    expect(server.countRows('mail_accounts')).toBe(0);
    expect((await ana.post(mailPaths.oauthComplete, { state, code })).statusCode).toBe(201);
    await refused(ana, { state, code });

    const late = await authorizeWeb(ana, { provider: 'google', loginHint: 'tarde@asesoria.es' });
    clock = new Date(clock.getTime() + 10 * 60_000 + 1_000);
    await refused(ana, late);
    expect(server.countRows('mail_accounts')).toBe(1);
    // Starting another sweeps the expired one.
    await authorizeWeb(ana, { provider: 'microsoft' });
    expect(server.countRows('mail_oauth_states')).toBe(1);
  });

  it("answers the provider's refusal in Spanish and uses up the state", async () => {
    const { state } = await authorizeWeb(ana, { provider: 'microsoft' });
    const denied = await ana.post(mailPaths.oauthComplete, { state, error: 'access_denied', errorDescription: 'The user declined' });
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toMatchObject({ code: 'OAUTH_DENIED', message: OAUTH_DENIED_MESSAGE });
    expect((await ana.post(mailPaths.oauthComplete, { state, error: 'access_denied' })).json()).toMatchObject({ code: 'OAUTH_STATE_INVALID' });
    expect(server.countRows('mail_accounts')).toBe(0);
  });

  it('refuses a grant without the send permission, and gives it back', async () => {
    provider.setGrantedScope('openid email');
    const { state, code } = await authorizeWeb(ana, { provider: 'google' });
    const response = await ana.post(mailPaths.oauthComplete, { state, code });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'OAUTH_DENIED' });
    expect(provider.revoked.length).toBeGreaterThan(0);
    expect(server.countRows('mail_accounts')).toBe(0);
  });

  it('validates bodies and needs a session', async () => {
    expect((await ana.post(mailPaths.oauthStart, { provider: 'yahoo' })).statusCode).toBe(400);
    expect((await ana.post(mailPaths.oauthStart, { provider: 'google', loginHint: 'no-es-correo' })).json()).toMatchObject({ issues: [{ path: 'loginHint' }] });
    expect((await server.app.inject({ method: 'GET', url: mailPaths.accounts })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: mailPaths.oauthStart, payload: { provider: 'google' } })).statusCode).toBe(401);
    expect(server.countRows('mail_oauth_states')).toBe(0);
  });
});

describe('linking from the desktop', () => {
  const redirectUri = 'http://127.0.0.1:53682/callback';

  async function desktopCode(email: string): Promise<{ code: string; codeVerifier: string }> {
    // What OAuthConnect does on the PC: its own PKCE pair, the browser to the provider, the code on the loopback.
    const { buildAuthorizationRequest } = await import('./oauth.ts');
    const request = await buildAuthorizationRequest({ provider: 'microsoft', config: provider.config.microsoft, client: provider.config.microsoft.desktop! }, redirectUri, email);
    const response = await fetch(request.authorizationUrl, { redirect: 'manual' });
    return { code: new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '', codeVerifier: request.codeVerifier };
  }

  it('redeems the code with its verifier; a wrong verifier is a 400 and writes nothing', async () => {
    const { code, codeVerifier } = await desktopCode('luis@contoso.com');
    const wrong = await ana.post(mailPaths.oauthDesktop, { provider: 'microsoft', code, codeVerifier: `${codeVerifier.slice(0, -2)}zz`, redirectUri });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'OAUTH_EXCHANGE_FAILED', message: OAUTH_EXCHANGE_FAILED_MESSAGE });
    expect(server.countRows('mail_accounts')).toBe(0);

    const again = await desktopCode('luis@contoso.com');
    const linked = await ana.post(mailPaths.oauthDesktop, { provider: 'microsoft', ...again, redirectUri });
    expect(linked.statusCode, linked.body).toBe(201);
    expect(linked.json()).toMatchObject({ provider: 'microsoft', email: 'luis@contoso.com', status: 'linked' });
    expect((await storedAccount(linked.json<MailAccount>()._id)).client_kind).toBe('desktop');
  });

  it('refuses a redirect that is not the loopback address', async () => {
    const { code, codeVerifier } = await desktopCode('luis@contoso.com');
    const response = await ana.post(mailPaths.oauthDesktop, { provider: 'microsoft', code, codeVerifier, redirectUri: 'http://evil.example/callback' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ issues: [{ path: 'redirectUri' }] });
  });
});

describe("a firm's accounts", () => {
  it("are the firm's: another firm neither sees nor deletes them (404); a colleague may unlink, revoked at Google", async () => {
    const mine = await linkWeb(ana, 'google', 'oficina@asesoria.es');
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const his = await linkWeb(luis, 'microsoft', 'luis@asesoria.es');
    const bea = await registerUser(server.app, 'bea@otra.es', 'Bea Otra');

    expect((await bea.get(mailPaths.accounts)).json()).toEqual({ items: [] });
    const foreign = await bea.request({ method: 'DELETE', url: pathFor(mailPaths.account, { id: mine._id }) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'MAIL_ACCOUNT_NOT_FOUND', message: MAIL_ACCOUNT_NOT_FOUND_MESSAGE });

    // The caller's own first.
    expect((await luis.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items.map((item) => [item.email, item.mine])).toEqual([['luis@asesoria.es', true], ['oficina@asesoria.es', false]]);
    expect((await ana.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items.map((item) => item.email)).toEqual(['oficina@asesoria.es', 'luis@asesoria.es']);

    const sealed = (await storedAccount(mine._id)).refresh_token;
    const removed = await luis.request({ method: 'DELETE', url: pathFor(mailPaths.account, { id: mine._id }) });
    expect(removed.statusCode).toBe(204);
    expect(provider.revoked).toContain(secretsBoxWithKey(KEY).open(sealed));
    expect((await ana.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items.map((item) => item._id)).toEqual([his._id]);
    expect((await ana.request({ method: 'DELETE', url: pathFor(mailPaths.account, { id: 'no-uuid' }) })).statusCode).toBe(400);
  });
});

describe('access tokens (the outbox seam)', () => {
  it('uses the stored token while it has more than 5 minutes left, and refreshes within them', async () => {
    provider.setExpiresIn(400);
    const account = await linkWeb(ana, 'google', 'oficina@asesoria.es');
    const first = await accounts.accessTokenFor(account._id);
    expect(first).toMatchObject({ accountId: account._id, provider: 'google', email: 'oficina@asesoria.es' });
    expect(provider.refreshCalls.google).toBe(0);
    expect((await storedAccount(account._id)).last_used_at).toBe(clock.toISOString());

    clock = new Date(clock.getTime() + 120_000);
    const second = await accounts.accessTokenFor(account._id);
    expect(provider.refreshCalls.google).toBe(1);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect((await ana.get(mailPaths.accounts)).json()).toMatchObject({ items: [{ linkedAt: '2026-11-27T09:00:00.000Z', lastUsedAt: clock.toISOString() }] });
    expect(provider.issuedTokens).toContain(second.accessToken);
    expect((await accounts.accessTokenFor(account._id)).accessToken).toBe(second.accessToken);
    expect(provider.refreshCalls.google).toBe(1);

    // A 401 from the API: forgotten, so the next call refreshes although the expiry looked fine.
    await accounts.forgetAccessToken(account._id);
    await accounts.accessTokenFor(account._id);
    expect(provider.refreshCalls.google).toBe(2);
  });

  it("stores Microsoft's rotated refresh token, and two overlapping refreshes use the old one once", async () => {
    const account = await linkWeb(ana, 'microsoft', 'luis@contoso.com');
    const before = (await storedAccount(account._id)).refresh_token;
    const calls = provider.refreshCalls.microsoft;
    await accounts.forgetAccessToken(account._id);
    provider.setRefreshDelay(150);
    const [a, b] = await Promise.all([accounts.accessTokenFor(account._id), accounts.accessTokenFor(account._id)]);
    expect(provider.refreshCalls.microsoft - calls).toBe(1);
    expect(a.accessToken).toBe(b.accessToken);
    const after = (await storedAccount(account._id)).refresh_token;
    expect(after).not.toBe(before);
    const box = secretsBoxWithKey(KEY);
    expect(box.open(after)).not.toBe(box.open(before));

    // The stored (rotated) one keeps working; the old one would be refused.
    await accounts.forgetAccessToken(account._id);
    await expect(accounts.accessTokenFor(account._id)).resolves.toMatchObject({ provider: 'microsoft' });
    expect((await storedAccount(account._id)).status).toBe('linked');
  });

  it('on invalid_grant marks the account needs_relink and tells its owner once, however often it is asked', async () => {
    const account = await linkWeb(ana, 'microsoft', 'luis@contoso.com');
    provider.revokeAllFor('luis@contoso.com');
    await accounts.forgetAccessToken(account._id);
    const failures = await Promise.allSettled([accounts.accessTokenFor(account._id), accounts.accessTokenFor(account._id)]);
    await expect(accounts.accessTokenFor(account._id)).rejects.toThrow(MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE);
    for (const failure of failures) {
      expect(failure.status).toBe('rejected');
      expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(MailAccountUnusableError);
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: 'ana@asesoria.es', purpose: 'mail_relink' });
    expect(notices[0]?.text).toContain('http://app.test/email');
    expect(mentionsAnyToken(notices[0]?.text ?? '')).toBe(false);
    const listed = (await ana.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items;
    expect(listed).toMatchObject([{ status: 'needs_relink', problem: MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE }]);

    // Linking it again replaces the tokens and makes it usable.
    const relinked = await linkWeb(ana, 'microsoft', 'luis@contoso.com');
    expect(relinked).toMatchObject({ _id: account._id, status: 'linked', problem: null });
    await expect(accounts.accessTokenFor(account._id)).resolves.toMatchObject({ email: 'luis@contoso.com' });
    expect(server.countRows('mail_accounts')).toBe(1);
  });

  // Two server processes on one PostgreSQL: only the row lock keeps them from both spending the old token.
  it.runIf(testDatabaseKind === 'postgres')('orders two processes\' refreshes of one Microsoft account with the row lock', async () => {
    const account = await linkWeb(ana, 'microsoft', 'luis@contoso.com');
    await accounts.forgetAccessToken(account._id);
    const calls = provider.refreshCalls.microsoft;
    provider.setRefreshDelay(150);
    const [a, b] = await Promise.all([accounts.accessTokenFor(account._id), seam().accessTokenFor(account._id)]);
    expect(provider.refreshCalls.microsoft - calls).toBe(1);
    expect(a.accessToken).toBe(b.accessToken);
    expect((await storedAccount(account._id)).status).toBe('linked');
  });

  it('refuses an account that does not exist', async () => {
    await expect(accounts.accessTokenFor('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(MailAccountUnusableError);
  });
});
