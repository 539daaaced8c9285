import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCRIPT_SETTING_INVALID_MESSAGE, machinesPaths, type ScriptSetting } from '#shared/api/machines.ts';
import { pathFor } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { FLOW_NOT_FOUND_MESSAGE } from '../flows/errors.ts';
import { MAX_SCRIPT_SETTINGS_PER_FLOW } from './script-settings.ts';
import { registerColleague, withDatabase } from './test-support.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');
// A flow of the built-in catalogue (resources/flows).
const FLOW = 'validar-identificadores';
const settingsUrl = (flowId: string) => pathFor(machinesPaths.scriptSettings, { flowId });
const settingUrl = (id: string) => pathFor(machinesPaths.scriptSetting, { id });
const CLIENTS = {
  configuration: { empresa: 'Talleres Demo SL', limite: 20, activo: true, cuentas: [{ label: 'Sede Madrid', key: '28255627528' }] },
  version: 2,
};

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

const list = async (jar: CookieJar, flowId = FLOW) => {
  const response = await jar.get(settingsUrl(flowId));
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: ScriptSetting[] }).items;
};

describe('script settings', () => {
  it('saves a flow’s configuration for the whole group, lists it by name and deletes it', async () => {
    const created = await ana.post(settingsUrl(FLOW), { name: ' Clientes ', data: CLIENTS });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ _id: expect.any(String), name: 'Clientes', settings: CLIENTS, createdAt: NOW.toISOString() });
    await ana.post(settingsUrl(FLOW), { name: 'Altas', data: { configuration: {} } });

    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    expect((await list(luis)).map((setting) => setting.name)).toEqual(['Altas', 'Clientes']);
    expect(await list(luis, 'fie-incidencias-a3')).toEqual([]);
    // Each one records who saved it.
    const stored = await withDatabase(server, (db) =>
      db.selectFrom('script_settings as s').innerJoin('users as u', 'u.id', 's.user_id').select(['u.email', 's.flow_id']).execute(),
    );
    expect(stored).toEqual([{ email: 'ana@asesoria.es', flow_id: FLOW }, { email: 'ana@asesoria.es', flow_id: FLOW }]);

    // Anyone in the firm may delete the firm's settings.
    expect((await luis.request({ method: 'DELETE', url: settingUrl((created.json() as ScriptSetting)._id) })).statusCode).toBe(204);
    expect((await list(ana)).map((setting) => setting.name)).toEqual(['Altas']);
  });

  it('refuses a configuration it cannot use with "Comprueba la información" and the fields at fault, nothing written', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Clientes', data: {} }, 'data.configuration'],
      [{ name: 'Clientes', data: { configuration: { cuentas: [{ label: 'Sede', key: '  ' }] } } }, 'data.configuration.cuentas.0.key'],
      [{ name: 'Clientes', data: { configuration: { anidado: { a: 1 } } } }, 'data.configuration.anidado'],
      [{ name: '', data: CLIENTS }, 'name'],
      [{ name: 'Clientes', data: CLIENTS, owner: 'otro' }, '(body)'],
    ];
    for (const [body, path] of cases) {
      const response = await ana.post(settingsUrl(FLOW), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION', message: SCRIPT_SETTING_INVALID_MESSAGE });
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    const huge = await ana.post(settingsUrl(FLOW), { name: 'Grande', data: { configuration: {}, extra: 'x'.repeat(300_000) } });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().issues).toEqual([{ path: 'data', message: 'La configuración ocupa demasiado' }]);
    expect(server.countRows('script_settings')).toBe(0);
  });

  it('answers 404 for a flow the catalogue does not offer', async () => {
    for (const response of [await ana.get(settingsUrl('no-existe')), await ana.post(settingsUrl('no-existe'), { name: 'Clientes', data: CLIENTS })]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'FLOW_NOT_FOUND', message: FLOW_NOT_FOUND_MESSAGE });
    }
    expect(server.countRows('script_settings')).toBe(0);
  });

  it('keeps firms apart: another group’s settings are neither listed nor deletable (404)', async () => {
    const otherFirm = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
    const ours = (await ana.post(settingsUrl(FLOW), { name: 'Clientes', data: CLIENTS })).json() as ScriptSetting;
    expect(await list(otherFirm)).toEqual([]);
    const response = await otherFirm.request({ method: 'DELETE', url: settingUrl(ours._id) });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('No se ha encontrado esta configuración');
    expect(await list(ana)).toHaveLength(1);
  });

  it('caps how many one flow keeps per group (409 in Spanish)', async () => {
    await withDatabase(server, async (db) => {
      const user = await db.selectFrom('users').select(['id', 'group_id']).where('email', '=', 'ana@asesoria.es').executeTakeFirstOrThrow();
      const rows = Array.from({ length: MAX_SCRIPT_SETTINGS_PER_FLOW }, (_, index) => ({
        id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        group_id: user.group_id,
        user_id: user.id,
        flow_id: FLOW,
        name: `Config ${index}`,
        settings: '{"configuration":{}}',
        created_at: NOW.toISOString(),
      }));
      await db.insertInto('script_settings').values(rows).execute();
    });
    const response = await ana.post(settingsUrl(FLOW), { name: 'Una más', data: { configuration: {} } });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('SCRIPT_SETTINGS_FULL');
    expect(server.countRows('script_settings')).toBe(MAX_SCRIPT_SETTINGS_PER_FLOW);
  });

  it('refuses bad ids (400 in Spanish) and needs a session', async () => {
    const badId = await ana.request({ method: 'DELETE', url: settingUrl('x') });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().issues).toEqual([{ path: 'id', message: 'El identificador de la configuración no es válido' }]);
    expect((await server.app.inject({ method: 'GET', url: settingsUrl(FLOW) })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: settingsUrl(FLOW), payload: { name: 'a', data: CLIENTS } })).statusCode).toBe(401);
    expect(server.countRows('script_settings')).toBe(0);
  });
});
