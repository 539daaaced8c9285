import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { machinesPaths, type MachineConfig } from '#shared/api/machines.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT } from '#shared/mail/template.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { withDatabase } from '../machines/test-support.ts';
import { finishedState, launch, upload } from '../runs/test-support.ts';
import { seedMailAccount } from './account-fixtures.ts';
import { MailProducers } from './producers.ts';

/**
 * Issue 43, 2: the result mail of 'FIE a incidencias A3' says how many partes went wrong. The robot used
 * to end on (read, read), so a run whose 'Errores' held a parte said 'ninguna con errores'.
 */
const EMAIL = { subject: DEFAULT_MAIL_SUBJECT, body: DEFAULT_MAIL_BODY, provider: 'google', email: 'nominas@asesoria.es', replyTo: '', senderName: 'Asesoría' } as const;

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ mailOutboxIntervalMs: 0, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  await withDatabase(server, (db) => seedMailAccount(db, { userEmail: 'ana@asesoria.es', provider: 'google', email: EMAIL.email }));
});
afterEach(async () => server.close());

describe('the FIE robot’s result figures', () => {
  it('a run with a parte left out of Incidencias says so in its figures and in the mail’s Resultado', async () => {
    const created = await ana.post(machinesPaths.firmConfigs, { name: 'Resultados', cccList: [], emailSettings: EMAIL });
    expect(created.statusCode, created.body).toBe(201);
    const config = created.json() as MachineConfig;
    const fie = encodeFieFile({
      entries: [
        { 310: '28123456789', 530: 'EMPRESA SL', 670: '0000012345678Z', 820: 'MUÑOZ', 840: 'LUCÍA', 1020: '20250110', 1090: '1', 1100: 'S' },
        { 310: '28123456789', 530: 'EMPRESA SL', 670: '0000087654321X', 820: 'GIL', 840: 'PABLO', 1020: '20250112', 1090: '1', 1100: 'N' },
        // 31 February: no valid date, so it goes to 'Errores' and is not charged.
        { 310: '28123456789', 530: 'EMPRESA SL', 670: '0000011111111H', 820: 'RUIZ', 840: 'EVA', 1020: '20250231', 1090: '1', 1100: 'S' },
      ],
      newline: '\r\n',
    });
    const [file] = await upload(ana, [{ name: 'marzo.fie', data: Buffer.from(fie, 'latin1') }]);
    const response = await launch(ana, 'fie-incidencias-a3', {
      fies: [{ uploadId: file?.id, name: 'marzo.fie' }],
      emailResult: { configId: config._id, recipients: ['cliente@empresa.es'] },
    });
    expect(response.statusCode, response.body).toBe(202);
    const done = await finishedState(ana, response.json().executionToken, 60_000);
    expect([done.successfulIterations, done.totalIterations]).toEqual([2, 3]);

    const mails = await withDatabase(server, async (db) => {
      await new MailProducers({ db, now: () => new Date(), publicUrl: 'http://app.test', emailResultInputs: new Map([['fie-incidencias-a3', 'emailResult']]) }).produce();
      return db.selectFrom('mail_outbox').select(['kind', 'body']).execute();
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.kind).toBe('result');
    expect(mails[0]?.body).toContain('Resultado: Completado: 3 filas comprobadas, 1 con error. Coste: 2 slans\n');
  }, 90_000);
});
