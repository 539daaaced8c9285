import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathFor } from '#shared/api/flows.ts';
import { machinesPaths, type MachineConfig } from '#shared/api/machines.ts';
import { MAIL_ACCOUNT_REQUIRED_MESSAGE, MAIL_CONFIG_NOT_USABLE_MESSAGE } from '#shared/api/mail.ts';
import { DEFAULT_MAIL_BODY, DEFAULT_MAIL_SUBJECT } from '#shared/mail/template.ts';
import * as migration from '../../db/migrations/0023-firm-mail-configs.ts';
import { seedMailAccount } from '../mail/account-fixtures.ts';
import { EMAIL_RESULT_INPUTS } from '../mail/outbox-test-support.ts';
import { MailProducers } from '../mail/producers.ts';
import { finishedState, launch, upload } from '../runs/test-support.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { machineHash, machinesOf, registerColleague, sync, withDatabase } from './test-support.ts';

/**
 * Issue 43, item 1: a firm with no PC keeps email configurations of its own (on no device), and its
 * server robots email their results with them; device configs stay as they were. Item 3: a config is
 * edited in place.
 */
const VALID_CCC = '28255627528';
const EMAIL = { subject: DEFAULT_MAIL_SUBJECT, body: DEFAULT_MAIL_BODY, provider: 'google', email: 'nominas@asesoria.es', replyTo: '', senderName: 'Asesoría' } as const;
const configUrl = (configId: string) => pathFor(machinesPaths.machineConfig, { configId });

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ mailOutboxIntervalMs: 0, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  await withDatabase(server, (db) => seedMailAccount(db, { userEmail: 'ana@asesoria.es', provider: 'google', email: EMAIL.email }));
});
afterEach(async () => server.close());

describe("the firm's own configs", () => {
  it('a firm with no device saves one, a server robot launched with it queues its result mail with the run\'s figures', async () => {
    expect(await machinesOf(ana)).toEqual([]);
    const created = await ana.post(machinesPaths.firmConfigs, { name: 'Resultados', cccList: [VALID_CCC], emailSettings: EMAIL });
    expect(created.statusCode, created.body).toBe(201);
    const config = created.json() as MachineConfig;
    expect(config).toMatchObject({ name: 'Resultados', cccList: [VALID_CCC], emailSettings: EMAIL, error: null });
    expect((await ana.get(machinesPaths.firmConfigs)).json()).toEqual({ items: [config] });

    const fixture = await readFile(new URL('../../../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url));
    const [book] = await upload(ana, [{ name: 'trabajadores.xlsx', data: fixture }]);
    const response = await launch(ana, 'validar-identificadores', {
      workbook: [{ uploadId: book?.id, name: 'trabajadores.xlsx' }], columns: { nif: 'DNI/NIE' }, emailResult: { configId: config._id, recipients: ['cliente@empresa.es'] },
    });
    expect(response.statusCode, response.body).toBe(202);
    const done = await finishedState(ana, response.json().executionToken, 60_000);
    expect([done.successfulIterations, done.totalIterations]).toEqual([3, 5]);

    const mails = await withDatabase(server, async (db) => {
      await new MailProducers({ db, now: () => new Date(), publicUrl: 'http://app.test', emailResultInputs: EMAIL_RESULT_INPUTS }).produce();
      return db.selectFrom('mail_outbox').select(['kind', 'state', 'from_address', 'to_addresses', 'body']).execute();
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'result', state: 'pending' });
    expect(mails[0]?.body).toContain('Resultado: Completado: 5 filas comprobadas, 2 con errores. Coste: 1 slan\n');
  }, 90_000);

  it('is refused at launch once deleted, and is the firm\'s only: colleagues see and change it, another firm gets 404', async () => {
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
    const config = (await ana.post(machinesPaths.firmConfigs, { name: 'Resultados', emailSettings: EMAIL })).json() as MachineConfig;
    expect((await luis.get(machinesPaths.firmConfigs)).json()).toMatchObject({ items: [{ _id: config._id }] });
    expect((await eva.get(machinesPaths.firmConfigs)).json()).toEqual({ items: [] });
    expect((await eva.put(configUrl(config._id), { name: 'Ajena' })).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url: configUrl(config._id) })).statusCode).toBe(404);
    expect((await luis.put(configUrl(config._id), { name: 'De Luis', emailSettings: EMAIL })).statusCode).toBe(200);

    expect((await luis.request({ method: 'DELETE', url: configUrl(config._id) })).statusCode).toBe(204);
    const refused = await launch(ana, 'validar-identificadores', { workbook: [], emailResult: { configId: config._id, recipients: ['cliente@empresa.es'] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toContainEqual({ path: 'inputs.emailResult.configId', message: MAIL_CONFIG_NOT_USABLE_MESSAGE });
  });

  it('refuses bad input and an unlinked address (400 in Spanish, nothing written) and needs a session', async () => {
    const unlinked = await ana.post(machinesPaths.firmConfigs, { name: 'Resultados', emailSettings: { ...EMAIL, email: 'otra@asesoria.es' } });
    expect(unlinked.statusCode).toBe(400);
    expect(unlinked.json()).toMatchObject({ code: 'MAIL_ACCOUNT_REQUIRED', message: MAIL_ACCOUNT_REQUIRED_MESSAGE });
    const unnamed = await ana.post(machinesPaths.firmConfigs, { name: ' ', cccList: ['123'] });
    expect(unnamed.json().issues).toEqual(expect.arrayContaining([{ path: 'name', message: 'Pon un nombre a la configuración' }, { path: 'cccList.0', message: 'Introduce un CCC válido' }]));
    expect((await server.app.inject({ method: 'GET', url: machinesPaths.firmConfigs })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: machinesPaths.firmConfigs, payload: { name: 'X' } })).statusCode).toBe(401);
    expect(server.countRows('machine_configs')).toBe(0);
  });
});

describe('editing a config', () => {
  it("replaces a device config's name, CCCs and mail settings in place; bad input changes nothing", async () => {
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: machineHash('oficina'), digitalCertificates: [] });
    const created = (await ana.post(pathFor(machinesPaths.machineConfigs, { id: machine._id }), { name: 'Nóminas', emailSettings: EMAIL })).json() as MachineConfig;
    const edited = await ana.put(configUrl(created._id), { name: ' Nóminas marzo ', cccList: [VALID_CCC], emailSettings: { ...EMAIL, subject: 'Nóminas de [[EMPRESA]]', email: 'NOMINAS@asesoria.es' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const expected = { _id: created._id, name: 'Nóminas marzo', cccList: [VALID_CCC], emailSettings: { ...EMAIL, subject: 'Nóminas de [[EMPRESA]]' }, error: null, createdAt: created.createdAt };
    expect(edited.json()).toEqual(expected);
    expect((await machinesOf(ana))[0]?.configs).toEqual([expected]);
    // Still the device's, not the firm's.
    expect((await ana.get(machinesPaths.firmConfigs)).json()).toEqual({ items: [] });

    for (const body of [{ name: '' }, { name: 'X', cccList: ['1'] }, { name: 'X', emailSettings: { ...EMAIL, email: 'sin-cuenta@asesoria.es' } }, { name: 'X', extra: 1 }]) {
      expect((await ana.put(configUrl(created._id), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await ana.put(configUrl('x'), { name: 'X' })).json().issues).toEqual([{ path: 'configId', message: 'El identificador de la configuración no es válido' }]);
    expect((await ana.put(configUrl('0b8f6c1e-3f0a-4c55-9a37-1f0e6b2d9a01'), { name: 'X' })).statusCode).toBe(404);
    expect((await machinesOf(ana))[0]?.configs).toEqual([expected]);

    // A colleague cannot reach a private machine's config.
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    expect((await luis.put(configUrl(created._id), { name: 'De Luis' })).statusCode).toBe(404);
  });
});

describe('migration 0023', () => {
  it('keeps device configs through the change (SQLite rebuilds the table), takes firm configs after it, and still deletes a device with its configs', async () => {
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: machineHash('oficina'), digitalCertificates: [] });
    const before = (await ana.post(pathFor(machinesPaths.machineConfigs, { id: machine._id }), { name: 'Nóminas', cccList: [VALID_CCC], emailSettings: EMAIL })).json() as MachineConfig;
    await withDatabase(server, async (db) => {
      await migration.down(db as never);
      await migration.up(db as never);
    });
    expect((await machinesOf(ana))[0]?.configs).toEqual([before]);
    expect((await ana.post(machinesPaths.firmConfigs, { name: 'De la asesoría' })).statusCode).toBe(201);
    expect((await ana.request({ method: 'DELETE', url: pathFor(machinesPaths.machine, { id: machine._id }) })).statusCode).toBe(204);
    expect(await withDatabase(server, (db) => db.selectFrom('machine_configs').select(['name', 'machine_id']).execute())).toEqual([{ name: 'De la asesoría', machine_id: null }]);
  });
});
