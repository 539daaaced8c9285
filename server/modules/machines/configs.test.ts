import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { machinesPaths, type Machine, type MachineConfig } from '#shared/api/machines.ts';
import { pathFor } from '#shared/api/flows.ts';
import { MAIL_ACCOUNT_REQUIRED_MESSAGE } from '#shared/api/mail.ts';
import { seedMailAccount } from '../mail/account-fixtures.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { CONFIG_DAMAGED_MESSAGE } from './configs.ts';
import { machineHash, machinesOf, registerColleague, sync, withDatabase } from './test-support.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');
const VALID_CCC = '28255627528';
const configsUrl = (id: string) => pathFor(machinesPaths.machineConfigs, { id });
const configUrl = (configId: string) => pathFor(machinesPaths.machineConfig, { configId });
const EMAIL = { subject: 'Nóminas de marzo', body: 'Adjuntamos las nóminas.', provider: 'google', email: 'nominas@asesoria.es', replyTo: '', senderName: 'Asesoría' };

let server: TestServer;
let ana: CookieJar;
let machine: Machine;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  machine = await sync(ana, 'PC Oficina', { machineHashCode: machineHash('oficina'), digitalCertificates: [] });
});
afterEach(async () => server.close());

describe('machine configs', () => {
  it('saves a config with its CCCs and mail settings, lists it on the machine by name, and deletes it', async () => {
    await withDatabase(server, (db) => seedMailAccount(db, { userEmail: 'ana@asesoria.es', provider: 'google', email: EMAIL.email, now: NOW }));
    const created = await ana.post(configsUrl(machine._id), { name: '  Nóminas ', cccList: [` ${VALID_CCC} `], emailSettings: EMAIL });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      _id: expect.any(String),
      name: 'Nóminas',
      cccList: [VALID_CCC],
      emailSettings: EMAIL,
      error: null,
      createdAt: NOW.toISOString(),
    });
    // An address typed with capitals is kept as the linked account has it (lower-case), so the outbox finds it.
    const shouted = await ana.post(configsUrl(machine._id), { name: 'Mayúsculas', emailSettings: { ...EMAIL, email: EMAIL.email.toUpperCase() } });
    expect(shouted.json()).toMatchObject({ emailSettings: { email: EMAIL.email } });
    await ana.request({ method: 'DELETE', url: `/api/machines/configs/${shouted.json<{ _id: string }>()._id}` });
    const plain = await ana.post(configsUrl(machine._id), { name: 'Altas' });
    expect(plain.json()).toMatchObject({ name: 'Altas', cccList: [], emailSettings: null, error: null });

    const [listed] = await machinesOf(ana);
    expect(listed?.configs.map((config) => config.name)).toEqual(['Altas', 'Nóminas']);

    const deleted = await ana.request({ method: 'DELETE', url: configUrl((created.json() as MachineConfig)._id) });
    expect(deleted.statusCode).toBe(204);
    expect((await machinesOf(ana))[0]?.configs.map((config) => config.name)).toEqual(['Altas']);
  });

  it('refuses a bad CCC, mail or name (400 in Spanish with the field, nothing written)', async () => {
    const cases: [Record<string, unknown>, string, string | null][] = [
      [{ name: 'Nóminas', cccList: ['28255627529'] }, 'cccList.0', 'Introduce un CCC válido'],
      [{ name: '  ' }, 'name', 'Pon un nombre a la configuración'],
      [{ name: 'Nóminas', emailSettings: { ...EMAIL, email: 'no-es-correo' } }, 'emailSettings.email', 'Introduce un correo válido'],
      [{ name: 'Nóminas', emailSettings: { ...EMAIL, refreshToken: 'secreto' } }, 'emailSettings', null],
    ];
    for (const [body, path, message] of cases) {
      const response = await ana.post(configsUrl(machine._id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const issue = (response.json() as { issues: { path: string; message: string }[] }).issues.find((found) => found.path === path);
      expect(issue?.message, path).toBe(message ?? issue?.message);
      expect(issue, path).toBeDefined();
    }
    expect(server.countRows('machine_configs')).toBe(0);
  });

  it('refuses mail settings without a linked account of that provider and address in the firm (400, nothing written)', async () => {
    const refused = async (jar: CookieJar, settings: typeof EMAIL) => {
      const response = await jar.post(configsUrl(machine._id), { name: 'Nóminas', emailSettings: settings });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'MAIL_ACCOUNT_REQUIRED', message: MAIL_ACCOUNT_REQUIRED_MESSAGE, issues: [{ path: 'emailSettings.email' }] });
    };
    await refused(ana, EMAIL);
    await withDatabase(server, async (db) => {
      // Another firm's account, the same address with the other provider, and one that needs re-linking do not count.
      await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
      await seedMailAccount(db, { userEmail: 'eva@otra.es', provider: 'google', email: EMAIL.email });
      await seedMailAccount(db, { userEmail: 'ana@asesoria.es', provider: 'microsoft', email: EMAIL.email });
      await seedMailAccount(db, { userEmail: 'ana@asesoria.es', provider: 'google', email: 'antigua@asesoria.es', status: 'needs_relink' });
    });
    await refused(ana, EMAIL);
    await refused(ana, { ...EMAIL, email: 'antigua@asesoria.es' });
    expect(server.countRows('machine_configs')).toBe(0);

    // A colleague's link serves the whole firm, whatever the case of the address.
    await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    await withDatabase(server, (db) => seedMailAccount(db, { userEmail: 'luis@asesoria.es', provider: 'google', email: EMAIL.email }));
    const saved = await ana.post(configsUrl(machine._id), { name: 'Nóminas', emailSettings: { ...EMAIL, email: 'Nominas@Asesoria.es' } });
    expect(saved.statusCode).toBe(201);
  });

  it('flags a stored config whose settings are not what was written, instead of failing the whole list', async () => {
    const good = (await ana.post(configsUrl(machine._id), { name: 'Buena', cccList: [VALID_CCC] })).json() as MachineConfig;
    await withDatabase(server, async (db) => {
      const base = { machine_id: machine._id, created_at: NOW.toISOString() };
      const { group_id: groupId } = await db.selectFrom('machines').select('group_id').where('id', '=', machine._id).executeTakeFirstOrThrow();
      await db.insertInto('machine_configs').values([
        { ...base, id: '0b8f6c1e-3f0a-4c55-9a37-1f0e6b2d9a01', group_id: groupId, name: 'Correo texto', ccc_list: '[]', email_settings: '"texto"' },
        { ...base, id: '0b8f6c1e-3f0a-4c55-9a37-1f0e6b2d9a02', group_id: groupId, name: 'CCC objeto', ccc_list: '{"a":1}', email_settings: null },
        { ...base, id: '0b8f6c1e-3f0a-4c55-9a37-1f0e6b2d9a03', group_id: groupId, name: 'JSON roto', ccc_list: '[', email_settings: '{' },
      ]).execute();
    });
    const response = await ana.get(machinesPaths.machines);
    expect(response.statusCode).toBe(200);
    const configs = (response.json() as { items: Machine[] }).items[0]?.configs ?? [];
    expect(configs.map((config) => [config.name, config.error])).toEqual([
      ['Buena', null],
      ['CCC objeto', CONFIG_DAMAGED_MESSAGE],
      ['Correo texto', CONFIG_DAMAGED_MESSAGE],
      ['JSON roto', CONFIG_DAMAGED_MESSAGE],
    ]);
    expect(configs.find((config) => config._id === good._id)?.cccList).toEqual([VALID_CCC]);
    expect(configs.find((config) => config.name === 'Correo texto')).toMatchObject({ cccList: [], emailSettings: null });
    // A damaged one can still be deleted.
    expect((await ana.request({ method: 'DELETE', url: configUrl('0b8f6c1e-3f0a-4c55-9a37-1f0e6b2d9a03') })).statusCode).toBe(204);
  });

  it('lets a colleague add and delete configs once the machine is shared; other firms and private machines 404', async () => {
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const otherFirm = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
    const anaConfig = (await ana.post(configsUrl(machine._id), { name: 'De Ana' })).json() as MachineConfig;

    expect((await luis.post(configsUrl(machine._id), { name: 'De Luis' })).statusCode).toBe(404);
    expect((await luis.request({ method: 'DELETE', url: configUrl(anaConfig._id) })).statusCode).toBe(404);

    await ana.patch(pathFor(machinesPaths.machine, { id: machine._id }), { shared: true });
    const luisConfig = await luis.post(configsUrl(machine._id), { name: 'De Luis' });
    expect(luisConfig.statusCode).toBe(201);
    expect((await machinesOf(ana))[0]?.configs.map((config) => config.name)).toEqual(['De Ana', 'De Luis']);

    expect((await otherFirm.post(configsUrl(machine._id), { name: 'Ajena' })).statusCode).toBe(404);
    const foreignDelete = await otherFirm.request({ method: 'DELETE', url: configUrl(anaConfig._id) });
    expect(foreignDelete.statusCode).toBe(404);
    expect(foreignDelete.json().message).toBe('No se ha encontrado esta configuración');
    expect(server.countRows('machine_configs')).toBe(2);

    expect((await luis.request({ method: 'DELETE', url: configUrl((luisConfig.json() as MachineConfig)._id) })).statusCode).toBe(204);
  });

  it('refuses bad ids (400 in Spanish) and needs a session', async () => {
    const badMachine = await ana.post(configsUrl('x'), { name: 'Nóminas' });
    expect(badMachine.statusCode).toBe(400);
    expect(badMachine.json().issues).toEqual([{ path: 'id', message: 'El identificador del dispositivo no es válido' }]);
    const badConfig = await ana.request({ method: 'DELETE', url: configUrl('x') });
    expect(badConfig.json().issues).toEqual([{ path: 'configId', message: 'El identificador de la configuración no es válido' }]);
    expect((await server.app.inject({ method: 'POST', url: configsUrl(machine._id), payload: { name: 'Nóminas' } })).statusCode).toBe(401);
    expect(server.countRows('machine_configs')).toBe(0);
  });
});
