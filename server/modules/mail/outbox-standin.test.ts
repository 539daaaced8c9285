/**
 * The outbox against the mail providers' stand-in (standins/mail-providers): real access tokens from
 * its token endpoint (PKCE), Gmail's JSON and upload endpoints and Graph's sendMail as the stand-in
 * decodes them. The fine-grained failure scripts (401 then success, exact backoff) are in outbox.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MailProvider } from '#shared/api/mail.ts';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT, SAMPLE_MAIL_VALUES, renderMailTemplate } from '#shared/mail/template.ts';
import { startMailProviders, type MailProviders } from '../../../standins/mail-providers/providers.ts';
import type { Database } from '../../db/schema.ts';
import { createMailer } from '../../mail/mailer.ts';
import { startTestServer, registerUser, type TestServer } from '../../test/harness.ts';
import { withDatabase } from '../machines/test-support.ts';
import { MailOutbox } from './outbox-worker.ts';
import { Clock, insertAccount, insertEmailConfig, insertRun, memberOf, storageOf, storeOutput, EMAIL_RESULT_INPUTS } from './outbox-test-support.ts';
import { MailProducers } from './producers.ts';
import type { MailAccessTokens } from './types.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const REDIRECT = 'http://127.0.0.1:50123/';
const SCOPES: Record<MailProvider, string> = { google: 'openid email https://www.googleapis.com/auth/gmail.send', microsoft: 'openid email offline_access https://graph.microsoft.com/Mail.Send' };

let providers: MailProviders;
let server: TestServer;
let clock: Clock;

beforeEach(async () => {
  clock = new Clock();
  providers = await startMailProviders({
    google: { clients: [{ clientId: 'g-desktop', kind: 'desktop' }], account: { email: 'asesoria@gmail.test' } },
    microsoft: { clients: [{ clientId: 'm-desktop', kind: 'desktop' }], account: { email: 'asesoria@outlook.test', name: 'Asesoría' } },
  });
  server = await startTestServer({ now: clock.now, mailOutboxIntervalMs: 0 });
});
afterEach(async () => {
  await server.close();
  await providers.close();
});

/** Consents on the stand-in's page and redeems the code with its PKCE verifier, as a desktop client would. */
async function accessToken(provider: MailProvider, email: string): Promise<string> {
  const endpoints = providers[provider];
  const clientId = provider === 'google' ? 'g-desktop' : 'm-desktop';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const params = new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: SCOPES[provider], state: randomBytes(16).toString('hex'), code_challenge: challenge, code_challenge_method: 'S256' });
  const decision = await fetch(`${endpoints.authorizationEndpoint}/decision`, { method: 'POST', body: new URLSearchParams([...params, ['email', email], ['decision', 'allow']]), redirect: 'manual' });
  const code = new URL(decision.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const token = await fetch(endpoints.tokenEndpoint, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier }) });
  expect(token.status).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

async function withOutbox(use: (db: Kysely<Database>, outbox: MailOutbox, member: { userId: string; groupId: string }) => Promise<void>): Promise<void> {
  await registerUser(server.app, 'ana@asesoria.es');
  const tokens = new Map<string, string>();
  await withDatabase(server, async (db) => {
    const seam: MailAccessTokens = {
      async accessTokenFor(accountId) {
        const account = await db.selectFrom('mail_accounts').select(['provider', 'email']).where('id', '=', accountId).executeTakeFirstOrThrow();
        return { accountId, provider: account.provider, email: account.email, accessToken: tokens.get(accountId) ?? '' };
      },
      async forgetAccessToken() {},
    };
    const member = await memberOf(db, 'ana@asesoria.es');
    for (const [provider, email] of [['google', 'asesoria@gmail.test'], ['microsoft', 'asesoria@outlook.test']] as const) {
      tokens.set(await insertAccount(db, member, provider, email), await accessToken(provider, email));
    }
    const outbox = new MailOutbox({
      db, storage: storageOf(server), tokens: seam, mailer: createMailer(undefined, { info: () => undefined } as unknown as FastifyBaseLogger), now: clock.now, singleProcess: true,
      log: { warn: () => undefined, error: () => undefined }, apiBaseUrls: { google: providers.google.apiBaseUrl, microsoft: providers.microsoft.apiBaseUrl },
      producers: [new MailProducers({ db, now: clock.now, publicUrl: 'http://app.test', emailResultInputs: EMAIL_RESULT_INPUTS })],
    });
    await use(db, outbox, member);
  });
}

async function resultRun(db: Kysely<Database>, member: { userId: string; groupId: string }, provider: MailProvider, files: Array<[string, Buffer]>) {
  const email = provider === 'google' ? 'asesoria@gmail.test' : 'asesoria@outlook.test';
  const configId = await insertEmailConfig(db, member, { provider, email, subject: 'Resultado de [[ROBOT]] — [[DATESTAMP]]', body: 'Adjuntamos [[ARCHIVOS]].', senderName: 'Asesoría Muñoz' });
  const runId = await insertRun(db, { ...member, result: 'Success', finishedAt: clock.now(), inputs: { emailResult: { configId, recipients: ['cliente@empresa.test'] } } });
  for (const [name, content] of files) await storeOutput(db, storageOf(server), { ...member, runId }, name, content);
  return runId;
}

describe('the outbox against the mail providers stand-in', () => {
  it('a Success run with emailResult arrives once at the fake Gmail, subject rendered and the file intact', async () => {
    const file = randomBytes(300_000);
    await withOutbox(async (db, outbox, member) => {
      await resultRun(db, member, 'google', [['Nóminas de marzo — Muñoz.xlsx', file]]);
      await outbox.drain();
      await outbox.drain();
      const [row] = await db.selectFrom('mail_outbox').selectAll().execute();
      expect(row).toMatchObject({ state: 'sent', provider_message_id: providers.messages()[0]?.id });
    });
    const messages = providers.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ via: 'gmail-json', account: 'asesoria@gmail.test', to: ['cliente@empresa.test'], subject: 'Resultado de Validar identificadores — 10/03/2026' });
    expect(messages[0]?.attachments).toEqual([expect.objectContaining({ filename: 'Nóminas de marzo — Muñoz.xlsx', size: file.length, sha256: sha256(file) })]);
  });

  it('over 5 MB goes through the upload endpoint; a 429 with Retry-After waits, then sends', async () => {
    const big = randomBytes(10 * 1024 * 1024);
    providers.failNext('gmail', 429, 1, 90);
    await withOutbox(async (db, outbox, member) => {
      await resultRun(db, member, 'google', [['grande.xlsx', big]]);
      await outbox.drain();
      const [waiting] = await db.selectFrom('mail_outbox').selectAll().execute();
      expect(waiting).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: new Date(clock.now().getTime() + 90_000).toISOString() });
      clock.advance(90_000);
      await outbox.drain();
      expect(await db.selectFrom('mail_outbox').select(['state', 'attempts']).execute()).toEqual([{ state: 'sent', attempts: 2 }]);
    });
    expect(providers.messages()).toHaveLength(1);
    expect(providers.messages()[0]).toMatchObject({ via: 'gmail-upload' });
    expect(providers.messages()[0]?.attachments[0]?.sha256).toBe(sha256(big));
  });

  it('a 3 MB file (a MIME under 5 MB whose JSON request would exceed it) goes through the upload endpoint', async () => {
    const file = randomBytes(3 * 1024 * 1024);
    await withOutbox(async (db, outbox, member) => {
      await resultRun(db, member, 'google', [['tres.xlsx', file]]);
      await outbox.drain();
      expect(await db.selectFrom('mail_outbox').select(['state', 'last_error']).execute()).toEqual([{ state: 'sent', last_error: null }]);
    });
    expect(providers.messages()).toMatchObject([{ via: 'gmail-upload' }]);
    expect(providers.messages()[0]?.attachments[0]?.sha256).toBe(sha256(file));
  });

  it('Graph takes the message with 202 and its attachment, up to just under 3 MB (4 MB once encoded)', async () => {
    const file = randomBytes(Math.floor(2.9 * 1024 * 1024));
    await withOutbox(async (db, outbox, member) => {
      await resultRun(db, member, 'microsoft', [['resultado.xlsx', file]]);
      await outbox.drain();
      expect(await db.selectFrom('mail_outbox').select(['state', 'provider_message_id']).execute()).toEqual([{ state: 'sent', provider_message_id: null }]);
    });
    expect(providers.messages()).toMatchObject([{ via: 'graph-json', account: 'asesoria@outlook.test', to: ['cliente@empresa.test'], subject: 'Resultado de Validar identificadores — 10/03/2026' }]);
    expect(providers.messages()[0]?.attachments[0]).toMatchObject({ size: file.length, sha256: sha256(file) });
  });

  it("says the run's result in the preview's words: rows checked, rows with errors and slans charged, with no stray blank lines", async () => {
    let firm = '';
    await withOutbox(async (db, outbox, member) => {
      firm = (await db.selectFrom('groups').select('name').where('id', '=', member.groupId).executeTakeFirstOrThrow()).name;
      const configId = await insertEmailConfig(db, member, { provider: 'google', email: 'asesoria@gmail.test', subject: DEFAULT_MAIL_SUBJECT, body: DEFAULT_MAIL_BODY });
      const emailResult = { configId, recipients: ['cliente@empresa.test'] };
      // 5 of 5 rows in error (the run), with its output; then a clean run of 1.250 rows whose file is gone.
      const failing = await insertRun(db, { ...member, result: 'Success', finishedAt: clock.now(), inputs: { emailResult }, figures: { successful: 0, total: 5, cost: 1 } });
      await storeOutput(db, storageOf(server), { ...member, runId: failing }, 'trabajadores validado.xlsx', Buffer.from('xlsx'));
      clock.advance(1000);
      await insertRun(db, { ...member, result: 'Success', finishedAt: clock.now(), inputs: { emailResult }, figures: { successful: 1250, total: 1250, cost: 13 } });
      await outbox.drain();
      await outbox.drain();
    });
    const texts = providers.messages().map((message) => message.text.replace(/\r\n/g, '\n').trimEnd());
    const stamp = 'del 10/03/2026 11:00.';
    // The outbox sends side by side: compared in either order.
    expect(texts.toSorted()).toEqual([
      ['Hola:', '', `Te enviamos el resultado de Validar identificadores ${stamp}`, '', 'Resultado: Completado: 5 filas comprobadas, 5 con errores. Coste: 1 slan', '',
        'Archivos adjuntos: trabajadores validado.xlsx', '', 'Un saludo,', firm].join('\n'),
      ['Hola:', '', `Te enviamos el resultado de Validar identificadores ${stamp}`, '', 'Resultado: Completado: 1.250 filas comprobadas, ninguna con errores. Coste: 13 slans', '',
        'Un saludo,', firm].join('\n'),
    ].toSorted());
    // The preview promises the same line, written by the same words.
    expect(renderMailTemplate(DEFAULT_MAIL_BODY, SAMPLE_MAIL_VALUES, new Date('2026-03-10T10:00:00Z'))).toContain('Resultado: Completado: 1.250 filas comprobadas, 3 con errores. Coste: 13 slans\n');
  });
});
