import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Colleagues } from '#shared/api/colleagues.ts';
import { mailPaths, type MailAccount } from '#shared/api/mail.ts';
import { pathFor } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { secretsBoxWithKey } from '../../security/secrets.ts';
import { registerUser, startTestServer, testDatabaseKind, type CookieJar, type TestServer } from '../../test/harness.ts';
import { isUsableEmailConfig } from '../mail/account-queries.ts';
import { MailAccounts } from '../mail/accounts.ts';
import { startTestOAuthProvider, type TestOAuthProvider } from '../mail/oauth-test-provider.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { ACCOUNT_GONE_MESSAGE, MailOutbox } from '../mail/outbox-worker.ts';
import { insertEmailConfig, memberOf, startFakeProvider, storageOf } from '../mail/outbox-test-support.ts';
import { joinFirm } from './test-support.ts';

/**
 * Issue 39 point 9: the mailboxes a removed colleague linked are theirs. Removing them unlinks those
 * mailboxes and revokes the grant at the provider; the outbox sends nothing more through them.
 */

const KEY = randomBytes(32);
const box = secretsBoxWithKey(KEY);
let provider: TestOAuthProvider;
let gmail: Awaited<ReturnType<typeof startFakeProvider>>;
let server: TestServer;
let db: Kysely<Database>;
let clock: Date;
let ana: CookieJar;

beforeAll(async () => {
  provider = await startTestOAuthProvider();
  gmail = await startFakeProvider();
});
afterAll(async () => {
  await provider.close();
  await gmail.close();
});

beforeEach(async () => {
  clock = new Date('2026-11-27T09:00:00Z');
  gmail.requests.length = 0;
  server = await startTestServer({ now: () => clock, mail: provider.config, secrets: { key: KEY.toString('base64') }, scheduleRunnerIntervalMs: 0, mailOutboxIntervalMs: 0 });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

/** The browser's part of the web flow, then the completion: the caller links `email`. */
async function linkWeb(jar: CookieJar, email: string): Promise<MailAccount> {
  const started = await jar.post(mailPaths.oauthStart, { provider: 'google', loginHint: email });
  expect(started.statusCode, started.body).toBe(200);
  const redirect = await fetch(started.json<{ authorizationUrl: string }>().authorizationUrl, { redirect: 'manual' });
  const back = new URL(redirect.headers.get('location') ?? '');
  const completed = await jar.post(mailPaths.oauthComplete, { state: back.searchParams.get('state'), code: back.searchParams.get('code') });
  expect(completed.statusCode, completed.body).toBe(201);
  return completed.json<MailAccount>();
}

/** The outbox as the app runs it: the real accounts seam (same database and key), Gmail's API faked. */
function outbox(): MailOutbox {
  const tokens = new MailAccounts({
    db, now: () => clock, secrets: box, providers: provider.config, publicUrl: 'http://app.test',
    mailer: { configured: true, sendLink: async () => undefined, sendMessage: async () => undefined, sendNotice: async () => undefined },
    log: server.app.log, rowLocks: testDatabaseKind === 'postgres',
  });
  return new MailOutbox({
    db, storage: storageOf(server), tokens, now: () => clock, apiBaseUrls: { google: gmail.url }, singleProcess: false, log: server.app.log,
    mailer: { configured: false, sendNotice: async () => undefined },
  });
}

async function queueResult(accountId: string, groupId: string, userId: string, cause: string): Promise<void> {
  await enqueueMail(db, {
    groupId, userId, causeKey: cause, runId: null, kind: 'result', accountId, transport: 'google', from: 'luis.gil@gmail.com', to: ['cliente@empresa.es'],
    subject: 'Resultado', body: 'Adjunto el resultado.', replyTo: null, senderName: null, attachments: [],
  }, clock);
}

const stateOf = async (cause: string) => db.selectFrom('mail_outbox').select(['state', 'last_error', 'account_id']).where('cause_key', '=', cause).executeTakeFirstOrThrow();

describe("removing a colleague who linked a mailbox", () => {
  it('lists the mailbox with them, then unlinks it, revokes the grant at the provider, and the outbox sends nothing more through it', async () => {
    const luis = await joinFirm(server, ana, 'luis@asesoria.es', 'Luis Gil');
    const account = await linkWeb(luis, 'luis.gil@gmail.com');
    const office = await linkWeb(ana, 'oficina@asesoria.es');
    const member = await memberOf(db, 'luis@asesoria.es');
    const configId = await insertEmailConfig(db, member, { provider: 'google', email: 'luis.gil@gmail.com', senderName: '', replyTo: '', subject: 'Resultado', body: 'Hola' });
    const refreshToken = box.open((await db.selectFrom('mail_accounts').select('refresh_token').where('id', '=', account._id).executeTakeFirstOrThrow()).refresh_token);

    // What the owner's confirmation names.
    const listed = (await ana.get('/api/colleagues')).json<Colleagues>();
    expect(listed.members.map((m) => [m.email, m.mailboxes])).toEqual([['ana@asesoria.es', ['oficina@asesoria.es']], ['luis@asesoria.es', ['luis.gil@gmail.com']]]);

    // Before: the outbox sends through it.
    await queueResult(account._id, member.groupId, member.userId, 'before');
    await outbox().drain();
    expect((await stateOf('before')).state).toBe('sent');
    expect(gmail.requests).toHaveLength(1);
    expect(await isUsableEmailConfig(db, member.groupId, configId)).toBe(true);
    await queueResult(account._id, member.groupId, member.userId, 'queued');

    expect((await ana.request({ method: 'DELETE', url: `/api/colleagues/${member.userId}` })).statusCode).toBe(204);

    expect(provider.revoked).toContain(refreshToken);
    expect((await ana.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items.map((item) => item._id)).toEqual([office._id]);
    expect(await db.selectFrom('mail_accounts').select('id').where('user_id', '=', member.userId).execute()).toEqual([]);
    // Launches and schedules naming that config are refused (the history says why).
    expect(await isUsableEmailConfig(db, member.groupId, configId)).toBe(false);

    // What was queued from it fails, and nothing reaches the provider.
    await outbox().drain();
    expect(await stateOf('queued')).toEqual({ state: 'failed', last_error: ACCOUNT_GONE_MESSAGE, account_id: null });
    expect(gmail.requests).toHaveLength(1);
    // The firm's own mailbox is untouched.
    expect(provider.revoked).toHaveLength(1);
  });

  it('lets the owner unlink a member\'s mailbox without removing them, revoked at the provider', async () => {
    const luis = await joinFirm(server, ana, 'luis@asesoria.es', 'Luis Gil');
    const account = await linkWeb(luis, 'luis.gil@gmail.com');
    const sealed = (await db.selectFrom('mail_accounts').select('refresh_token').where('id', '=', account._id).executeTakeFirstOrThrow()).refresh_token;
    const unlinked = await ana.request({ method: 'DELETE', url: pathFor(mailPaths.account, { id: account._id }) });
    expect(unlinked.statusCode).toBe(204);
    expect(provider.revoked).toContain(box.open(sealed));
    expect((await luis.get(mailPaths.accounts)).json()).toEqual({ items: [] });
  });

  it('removes a colleague with no mailbox as before, touching no other mailbox', async () => {
    await joinFirm(server, ana, 'luis@asesoria.es', 'Luis Gil');
    await linkWeb(ana, 'oficina@asesoria.es');
    const revokedBefore = provider.revoked.length;
    const member = await memberOf(db, 'luis@asesoria.es');
    expect((await ana.request({ method: 'DELETE', url: `/api/colleagues/${member.userId}` })).statusCode).toBe(204);
    expect(provider.revoked).toHaveLength(revokedBefore);
    expect((await ana.get(mailPaths.accounts)).json<{ items: MailAccount[] }>().items.map((item) => item.email)).toEqual(['oficina@asesoria.es']);
  });
});
