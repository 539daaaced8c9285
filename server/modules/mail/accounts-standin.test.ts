/**
 * The accounts routes against the mail providers' stand-in (standins/mail-providers): the web flow as
 * the browser runs it (start, the consent page's decision, /oauth-response, complete), the desktop
 * flow's redemption, and a revoked account answering invalid_grant. The same code reaches the real
 * providers by configuration alone.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailPaths, type MailAccount } from '#shared/api/mail.ts';
import { startMailProviders, type MailProviders } from '../../../standins/mail-providers/providers.ts';
import { connectDatabase } from '../../db/connect.ts';
import { secretsBoxWithKey } from '../../security/secrets.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { MailAccounts } from './accounts.ts';
import { buildAuthorizationRequest, InvalidGrantError, refreshAccess } from './oauth.ts';
import type { MailProvidersConfig } from './types.ts';
import { MailAccountUnusableError } from './types.ts';

const KEY = randomBytes(32);
let providers: MailProviders;
let config: MailProvidersConfig;
let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  providers = await startMailProviders({
    google: { clients: [{ clientId: 'g-web', clientSecret: 'g-secret', redirectUris: ['http://app.test/oauth-response'], kind: 'web' }], account: { email: 'asesoria@gmail.test' } },
    microsoft: { clients: [{ clientId: 'm-desktop', kind: 'desktop' }], account: { email: 'asesoria@outlook.test', name: 'Asesoría' } },
  });
  config = {
    google: { ...providers.google, web: { clientId: 'g-web', clientSecret: 'g-secret' }, desktop: null },
    microsoft: { ...providers.microsoft, issuer: providers.microsoft.issuerTemplate, revocationEndpoint: null, web: null, desktop: { clientId: 'm-desktop' } },
  };
  server = await startTestServer({ mail: config, secrets: { key: KEY.toString('base64') }, scheduleRunnerIntervalMs: 0, mailOutboxIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => {
  await server.close();
  await providers.close();
});

/** The consent page's "Permitir": the request's own fields posted back with the account chosen. */
async function consent(authorizationUrl: string, email: string): Promise<URL> {
  const url = new URL(authorizationUrl);
  const decision = await fetch(`${url.origin}${url.pathname}/decision`, { method: 'POST', body: new URLSearchParams([...url.searchParams, ['email', email], ['decision', 'allow']]), redirect: 'manual' });
  return new URL(decision.headers.get('location') ?? '');
}

describe('linking against the stand-in', () => {
  it('links a Google mailbox through the web flow and revokes it on unlink', async () => {
    const started = await ana.post(mailPaths.oauthStart, { provider: 'google', loginHint: 'asesoria@gmail.test' });
    const back = await consent(started.json<{ authorizationUrl: string }>().authorizationUrl, 'asesoria@gmail.test');
    expect(back.origin + back.pathname).toBe('http://app.test/oauth-response');
    const completed = await ana.post(mailPaths.oauthComplete, { state: back.searchParams.get('state'), code: back.searchParams.get('code') });
    expect(completed.statusCode, completed.body).toBe(201);
    const account = completed.json<MailAccount>();
    expect(account).toMatchObject({ provider: 'google', email: 'asesoria@gmail.test', status: 'linked' });

    const db = connectDatabase(server.database);
    const sealed = await db.selectFrom('mail_accounts').select('refresh_token').where('id', '=', account._id).executeTakeFirstOrThrow().finally(() => db.destroy());
    const refreshToken = secretsBoxWithKey(KEY).open(sealed.refresh_token);
    const google = { provider: 'google' as const, config: config.google, client: { clientId: 'g-web', clientSecret: 'g-secret' } };
    await expect(refreshAccess(google, refreshToken)).resolves.toMatchObject({ refreshToken: null });

    const removed = await ana.request({ method: 'DELETE', url: `/api/mail/accounts/${account._id}` });
    expect(removed.statusCode).toBe(204);
    expect((await ana.get(mailPaths.accounts)).json()).toEqual({ items: [] });
    await expect(refreshAccess(google, refreshToken)).rejects.toBeInstanceOf(InvalidGrantError);
  });

  it("announces the desktop client (public facts) to a signed-in caller, so an installed app needs no settings of its own", async () => {
    const clients = await ana.get(mailPaths.oauthDesktopClients);
    expect(clients.statusCode).toBe(200);
    expect(clients.json()).toEqual({
      google: null,
      microsoft: { authorizationUrl: providers.microsoft.authorizationEndpoint, issuer: providers.microsoft.issuerTemplate, clientId: 'm-desktop' },
    });
    expect((await server.app.inject({ method: 'GET', url: mailPaths.oauthDesktopClients })).statusCode).toBe(401);
  });

  it('links a Microsoft mailbox from the desktop flow, refreshes it, and marks it for re-linking once revoked', async () => {
    const redirectUri = 'http://127.0.0.1:50123/callback';
    const request = await buildAuthorizationRequest({ provider: 'microsoft', config: config.microsoft, client: { clientId: 'm-desktop' } }, redirectUri);
    const back = await consent(request.authorizationUrl, 'asesoria@outlook.test');
    const linked = await ana.post(mailPaths.oauthDesktop, { provider: 'microsoft', code: back.searchParams.get('code'), codeVerifier: request.codeVerifier, redirectUri });
    expect(linked.statusCode, linked.body).toBe(201);
    const account = linked.json<MailAccount>();

    const db = connectDatabase(server.database);
    try {
      const notices: string[] = [];
      const accounts = new MailAccounts({
        db, now: () => new Date(), secrets: secretsBoxWithKey(KEY), providers: config, publicUrl: 'http://app.test', log: server.app.log,
        mailer: { configured: true, sendLink: async () => undefined, sendMessage: async () => undefined, sendNotice: async ({ purpose }) => void notices.push(purpose) },
      });
      await accounts.forgetAccessToken(account._id);
      await expect(accounts.accessTokenFor(account._id)).resolves.toMatchObject({ email: 'asesoria@outlook.test' });
      expect(providers.refreshCount('asesoria@outlook.test')).toBe(1);

      providers.revoke('asesoria@outlook.test');
      await accounts.forgetAccessToken(account._id);
      await expect(accounts.accessTokenFor(account._id)).rejects.toBeInstanceOf(MailAccountUnusableError);
      expect(notices).toEqual(['mail_relink']);
      expect((await ana.get(mailPaths.accounts)).json()).toMatchObject({ items: [{ status: 'needs_relink' }] });
    } finally {
      await db.destroy();
    }
  });
});
