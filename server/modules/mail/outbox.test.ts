import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, MAIL_CONFIG_NOT_USABLE_MESSAGE, mailPaths } from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import { createMailer } from '../../mail/mailer.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { withDatabase } from '../machines/test-support.ts';
import { INTERRUPTED_MESSAGE, MAX_ATTEMPTS } from './outbox.ts';
import { MailOutbox } from './outbox-worker.ts';
import { FakeTokens, Clock, insertAccount, insertEmailConfig, insertRun, memberOf, startFakeProvider, storageOf, storeOutput, EMAIL_RESULT_INPUTS } from './outbox-test-support.ts';
import { MailProducers } from './producers.ts';
import { SMTP_NOT_CONFIGURED_MESSAGE } from './transports/smtp.ts';
import { GRAPH_TOO_LARGE_MESSAGE } from './transports/graph.ts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const SETTINGS = { subject: 'Resultado de [[ROBOT]] del [[DATESTAMP]]', body: 'Hola:\n\n[[RESULTADO]]\nArchivos: [[ARCHIVOS]]\n\n[[EMPRESA]]', provider: 'google', email: 'asesoria@gmail.com', replyTo: 'dudas@asesoria.es', senderName: 'Asesoría Muñoz' } as const;

let server: TestServer;
let clock: Clock;
let provider: Awaited<ReturnType<typeof startFakeProvider>>;
let ana: CookieJar;
let member: { userId: string; groupId: string };
let db: Kysely<Database>;
let tokens: FakeTokens;
let logged: Array<Record<string, unknown>>;
let outbox: MailOutbox;

beforeEach(async () => {
  clock = new Clock();
  server = await startTestServer({ now: clock.now, mailOutboxIntervalMs: 0 });
  provider = await startFakeProvider();
  ana = await registerUser(server.app, 'ana@asesoria.es');
  member = await withDatabase(server, (conn) => memberOf(conn, 'ana@asesoria.es'));
});
afterEach(async () => {
  await provider.close();
  await server.close();
});

/** Runs `use` with a worker over its own connection: a second server process, as far as the database knows. */
async function withOutbox<T>(use: () => Promise<T>): Promise<T> {
  return withDatabase(server, async (conn) => {
    db = conn;
    tokens = new FakeTokens(() => conn);
    logged = [];
    const log = { info: (details: Record<string, unknown>) => void logged.push(details) } as unknown as FastifyBaseLogger;
    const silent = { warn: () => undefined, error: () => undefined };
    outbox = new MailOutbox({
      db: conn, storage: storageOf(server), tokens, mailer: createMailer(undefined, log), now: clock.now, singleProcess: true, log: silent, random: () => 0,
      apiBaseUrls: { google: provider.url, microsoft: provider.url },
      producers: [new MailProducers({ db: conn, now: clock.now, publicUrl: 'http://app.test', emailResultInputs: EMAIL_RESULT_INPUTS })],
    });
    return use();
  });
}

const rows = () => db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();

async function resultRun(settings: typeof SETTINGS | { provider: 'microsoft'; email: string; subject: string; body: string }, files: Array<[string, Buffer]>) {
  const accountId = await insertAccount(db, member, settings.provider, settings.email);
  const configId = await insertEmailConfig(db, member, settings);
  const runId = await insertRun(db, { ...member, result: 'Success', finishedAt: clock.now(), inputs: { emailResult: { configId, recipients: ['cliente@example.com'] } }, figures: { successful: 2, total: 3, cost: 1 } });
  for (const [name, content] of files) await storeOutput(db, storageOf(server), { ...member, runId }, name, content);
  return { runId, accountId };
}

async function gmailMessage(index = 0) {
  const request = provider.requests[index]!;
  const raw = request.contentType === 'message/rfc822' ? request.body : Buffer.from((JSON.parse(request.body.toString('utf8')) as { raw: string }).raw, 'base64url');
  return simpleParser(raw);
}

describe('result mails', () => {
  it('sends a Success run with emailResult once through Gmail, with the rendered subject and the output intact; the run shows its delivery', async () => {
    const workbook = randomBytes(200_000);
    const { runId } = await withOutbox(async () => {
      const run = await resultRun(SETTINGS, [['Nóminas de marzo — Muñoz.xlsx', workbook]]);
      await outbox.drain();
      await outbox.drain();
      return run;
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ method: 'POST', path: '/gmail/v1/users/me/messages/send', authorization: 'Bearer token-1', contentType: 'application/json' });
    const message = await gmailMessage();
    expect(message.subject).toBe('Resultado de Validar identificadores del 10/03/2026');
    expect(message.from?.value[0]).toEqual({ name: 'Asesoría Muñoz', address: 'asesoria@gmail.com' });
    expect(message.replyTo?.value[0]?.address).toBe('dudas@asesoria.es');
    expect(message.text).toContain('Completado: 3 filas comprobadas, 1 con error. Coste: 1 slan');
    expect(message.text).toContain('Nóminas de marzo — Muñoz.xlsx');
    expect(message.attachments.map((file) => file.filename)).toEqual(['Nóminas de marzo — Muñoz.xlsx']);
    expect(sha256(message.attachments[0]!.content)).toBe(sha256(workbook));

    const response = await ana.get(`${mailPaths.deliveries}?runId=${runId}`);
    expect(response.statusCode, response.body).toBe(200);
    const [delivery] = (response.json() as { items: Array<Record<string, unknown>> }).items;
    expect(delivery).toMatchObject({ kind: 'result', state: 'sent', transport: 'google', from: 'asesoria@gmail.com', to: ['cliente@example.com'], attempts: 1, providerMessageId: 'gmail-1', error: null, nextAttemptAt: null });
    expect(delivery).toMatchObject({ attachments: [{ name: 'Nóminas de marzo — Muñoz.xlsx', size: workbook.length }] });
    expect(delivery).not.toHaveProperty('body');

    // Another firm's advisor cannot see that the run exists.
    const luis = await registerUser(server.app, 'luis@otra.es');
    expect((await luis.get(`${mailPaths.deliveries}?runId=${runId}`)).statusCode).toBe(404);
    expect((await ana.get(`${mailPaths.deliveries}?runId=no-es-uuid`)).statusCode).toBe(400);
  });

  it('sends once when two processes drain the same due row at once', async () => {
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await withDatabase(server, async (other) => {
        const second = new MailOutbox({
          db: other, storage: storageOf(server), tokens: new FakeTokens(() => other), mailer: createMailer(undefined, { info: () => undefined } as unknown as FastifyBaseLogger),
          now: clock.now, singleProcess: false, log: { warn: () => undefined, error: () => undefined }, apiBaseUrls: { google: provider.url },
          producers: [new MailProducers({ db: other, now: clock.now, publicUrl: 'http://app.test', emailResultInputs: EMAIL_RESULT_INPUTS })],
        });
        await Promise.all([outbox.drain(), second.drain(), outbox.drain(), second.drain()]);
      });
      expect(await rows()).toMatchObject([{ state: 'sent', attempts: 1 }]);
    });
    expect(provider.requests).toHaveLength(1);
  });

  it('waits the Retry-After of a 429, then sends', async () => {
    provider.script.push({ status: 429, headers: { 'retry-after': '120' }, body: { error: 'rateLimitExceeded' } });
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await outbox.drain();
      const [row] = await rows();
      expect(row).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: new Date(clock.now().getTime() + 120_000).toISOString() });
      expect(row?.last_error).toContain('Gmail ha limitado los envíos');
      clock.advance(119_000);
      await outbox.drain();
      expect(provider.requests).toHaveLength(1);
      clock.advance(1_000);
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'sent', attempts: 2, provider_message_id: 'gmail-1', last_error: null }]);
    });
    expect(provider.requests).toHaveLength(2);
  });

  it('never tries again a send whose connection was cut after the request went out: it may have arrived', async () => {
    provider.script.push({ status: 'reset' });
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await outbox.drain();
      const [row] = await rows();
      expect(row).toMatchObject({ state: 'unknown', attempts: 1, next_attempt_at: null });
      expect(row?.last_error).toContain('puede que el mensaje llegara');
      clock.advance(24 * 3_600_000);
      await outbox.drain();
    });
    expect(provider.requests).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts of 503, backing off 1, 2, 4… minutes`, async () => {
    for (let i = 0; i < 10; i += 1) provider.script.push({ status: 503, body: { error: 'backendError' } });
    const waits: number[] = [];
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        await outbox.drain();
        const [row] = await rows();
        if (row?.state !== 'pending') break;
        const wait = new Date(row.next_attempt_at!).getTime() - clock.now().getTime();
        waits.push(wait);
        clock.advance(wait);
      }
      const [row] = await rows();
      expect(row).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
      expect(row?.last_error).toMatch(/Gmail no está disponible ahora.*tras 6 intentos/);
      clock.advance(24 * 3_600_000);
      await outbox.drain();
    });
    expect(waits).toEqual([1, 2, 4, 8, 16].map((minutes) => minutes * 60_000));
    expect(provider.requests).toHaveLength(MAX_ATTEMPTS);
  });

  it('forgets a refused access token and tries again at once', async () => {
    provider.acceptedToken.value = 'token-2';
    await withOutbox(async () => {
      const { accountId } = await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await outbox.drain();
      expect(tokens.forgotten).toEqual([accountId]);
      expect(await rows()).toMatchObject([{ state: 'sent', attempts: 1 }]);
    });
    expect(provider.requests.map((request) => request.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it("marks a row a dead process left 'sending' as unknown and never sends it", async () => {
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await new MailProducers({ db, now: clock.now, publicUrl: 'http://app.test', emailResultInputs: EMAIL_RESULT_INPUTS }).produce();
      await db.updateTable('mail_outbox').set({ state: 'sending', attempts: 1 }).execute();
      expect(await outbox.recover()).toBe(1);
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'unknown', attempts: 1, last_error: INTERRUPTED_MESSAGE }]);
    });
    expect(provider.requests).toHaveLength(0);
  });

  it('sends through Graph (202, no provider id) with the files as fileAttachments', async () => {
    const settings = { provider: 'microsoft', email: 'asesoria@outlook.com', subject: 'Resultado [[ROBOT]]', body: 'Adjunto' } as const;
    const file = randomBytes(50_000);
    await withOutbox(async () => {
      await resultRun(settings, [['resultado.xlsx', file]]);
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'sent', transport: 'microsoft', provider_message_id: null }]);
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ path: '/v1.0/me/sendMail', authorization: 'Bearer token-1' });
    const sent = JSON.parse(provider.requests[0]!.body.toString('utf8')) as { saveToSentItems: boolean; message: { subject: string; body: unknown; toRecipients: unknown; attachments: Array<{ name: string; contentBytes: string }> } };
    expect(sent.saveToSentItems).toBe(true);
    expect(sent.message).toMatchObject({ subject: 'Resultado Validar identificadores', body: { contentType: 'Text', content: 'Adjunto' }, toRecipients: [{ emailAddress: { address: 'cliente@example.com' } }] });
    expect(sent.message.attachments[0]?.name).toBe('resultado.xlsx');
    expect(sha256(Buffer.from(sent.message.attachments[0]!.contentBytes, 'base64'))).toBe(sha256(file));
  });

  it('refuses Graph attachments over 3 MB for good, without calling Microsoft', async () => {
    const settings = { provider: 'microsoft', email: 'asesoria@outlook.com', subject: 'R', body: 'B' } as const;
    await withOutbox(async () => {
      await resultRun(settings, [['grande.xlsx', randomBytes(3 * 1024 * 1024 + 1)]]);
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'failed', attempts: 1, last_error: GRAPH_TOO_LARGE_MESSAGE }]);
    });
    expect(provider.requests).toHaveLength(0);
  });

  it("sends a message over 5 MB through Gmail's upload endpoint, intact", async () => {
    const big = randomBytes(6 * 1024 * 1024);
    await withOutbox(async () => {
      await resultRun(SETTINGS, [['grande.xlsx', big]]);
      await outbox.drain();
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ path: '/upload/gmail/v1/users/me/messages/send?uploadType=media', contentType: 'message/rfc822' });
    expect(sha256((await gmailMessage()).attachments[0]!.content)).toBe(sha256(big));
  });

  it('records a result whose config is gone as failed, once, with the reason', async () => {
    await withOutbox(async () => {
      await insertRun(db, { ...member, result: 'Success', finishedAt: clock.now(), inputs: { emailResult: { configId: 'no-existe', recipients: ['cliente@example.com'] } } });
      await outbox.drain();
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'failed', attempts: 0, last_error: MAIL_CONFIG_NOT_USABLE_MESSAGE }]);
    });
    expect(provider.requests).toHaveLength(0);
  });
});

describe('accounts that cannot send', () => {
  it('records a result whose account needs re-linking as failed, with that reason, without calling Gmail', async () => {
    await withOutbox(async () => {
      const { accountId } = await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      await db.updateTable('mail_accounts').set({ status: 'needs_relink' }).where('id', '=', accountId).execute();
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'failed', attempts: 0, last_error: MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, account_id: accountId }]);
    });
    expect(provider.requests).toHaveLength(0);
  });

  it('gives up at once when the account turns unusable while queued (invalid_grant on refresh)', async () => {
    await withOutbox(async () => {
      const { accountId } = await resultRun(SETTINGS, [['a.xlsx', Buffer.from('a')]]);
      tokens.unusable.add(accountId);
      await outbox.drain();
      expect(await rows()).toMatchObject([{ state: 'failed', attempts: 1, last_error: MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE }]);
    });
    expect(provider.requests).toHaveLength(0);
  });
});

describe('failure notices', () => {
  it('tells the user of a failed scheduled run once (SMTP, logged without SMTP_URL), and nothing for a run the user stopped', async () => {
    await withOutbox(async () => {
      const failed = await insertRun(db, { ...member, result: 'Fail', launchStatus: 500, scheduled: true, message: 'El portal no responde', finishedAt: clock.now() });
      await insertRun(db, { ...member, result: 'FlowAborted', launchStatus: 202, stoppedByUser: true, scheduled: true, finishedAt: clock.now() });
      await insertRun(db, { ...member, result: 'Fail', launchStatus: 500, finishedAt: clock.now() }); // launched by hand: the user saw it
      await outbox.drain();
      await outbox.drain();
      const all = await rows();
      expect(all).toMatchObject([{ kind: 'notice', run_id: failed, transport: 'smtp', state: 'failed', last_error: SMTP_NOT_CONFIGURED_MESSAGE, to_addresses: '["ana@asesoria.es"]' }]);
      expect(all[0]?.body).toContain('El portal no responde');
      expect(all[0]?.body).toMatch(/http:\/\/app\.test\/flows\?robot=[^\s]+&tipo=scheduled&desde=\d{4}-\d{2}-\d{2}&hasta=\d{4}-\d{2}-\d{2}/);
      expect(all[0]?.body).toContain('10/03/2026 11:00');
      expect(logged.filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'run_notice')).toEqual([{ mail: { to: 'ana@asesoria.es', purpose: 'run_notice' } }]);
    });
  });

  it("tells a refused (402) scheduled run's user once, through the firm's linked account", async () => {
    await withOutbox(async () => {
      await insertAccount(db, member, 'google', 'asesoria@gmail.com');
      await insertRun(db, { ...member, result: 'NotEnoughSlans', launchStatus: 402, remote: true, message: 'Insuficientes slans', finishedAt: clock.now() });
      await outbox.drain();
      await outbox.drain();
      expect(await rows()).toMatchObject([{ kind: 'notice', transport: 'google', state: 'sent' }]);
    });
    expect(provider.requests).toHaveLength(1);
    const message = await gmailMessage();
    expect(message.subject).toBe('Aviso de AutoAsesor: Validar identificadores no se ha lanzado por falta de créditos');
    expect(message.text).toContain('Insuficientes slans');
  });

  it('leaves runs older than a day alone', async () => {
    await withOutbox(async () => {
      await insertRun(db, { ...member, result: 'Fail', scheduled: true, finishedAt: new Date(clock.now().getTime() - 25 * 3_600_000) });
      await outbox.drain();
      expect(await rows()).toEqual([]);
    });
  });
});
