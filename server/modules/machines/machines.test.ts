import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MACHINE_DELETE_FAILED_MESSAGE, machinesPaths, type Machine } from '#shared/api/machines.ts';
import { pathFor } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { certificate, machineHash, machinesOf, registerColleague, sync, withDatabase } from './test-support.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');
const machineUrl = (id: string) => pathFor(machinesPaths.machine, { id });

let server: TestServer;
let ana: CookieJar;
let luis: CookieJar;
let otherFirm: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es', 'Luis Martín');
  otherFirm = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
});
afterEach(async () => server.close());

const register = (jar: CookieJar, name: string, pc = name) =>
  sync(jar, name, { machineHashCode: machineHash(pc), digitalCertificates: [certificate(`TITULAR ${name.toUpperCase()}`, 100, NOW)] });

describe('GET /api/machines', () => {
  it('lists the caller’s machines first, then the ones shared with them, by saved name; never private or foreign ones', async () => {
    const anaZ = await register(ana, 'Zaragoza');
    await register(ana, 'almacén');
    const luisShared = await register(luis, 'Recepción');
    const luisAlso = await register(luis, 'Archivo');
    await register(luis, 'Portátil de Luis');
    await register(otherFirm, 'Oficina ajena');
    await luis.patch(machineUrl(luisShared._id), { shared: true });
    await luis.patch(machineUrl(luisAlso._id), { shared: true });

    const seen = await machinesOf(ana);
    expect(seen.map((m) => [m.savedAs, m.mine, m.shared])).toEqual([
      ['almacén', true, false],
      ['Zaragoza', true, false],
      ['Archivo', false, true],
      ['Recepción', false, true],
    ]);
    const shared = seen[3] as Machine;
    expect(shared.owner).toEqual({ email: 'luis@asesoria.es', name: 'Luis Martín' });
    expect(shared.certificates.map((c) => c.subject.CN)).toEqual(['TITULAR RECEPCIÓN - 00000000T']);
    expect(shared.configs).toEqual([]);

    expect((await machinesOf(otherFirm)).map((m) => m.savedAs)).toEqual(['Oficina ajena']);
    expect((await machinesOf(ana, `?machineHashCode=${machineHash('Zaragoza')}`)).map((m) => m._id)).toEqual([anaZ._id]);
    expect(await machinesOf(ana, `?machineHashCode=${machineHash('Oficina ajena')}`)).toEqual([]);
  });

  it('refuses a hash it cannot be (400 in Spanish) and needs a session', async () => {
    const response = await ana.get(`${machinesPaths.machines}?machineHashCode=XYZ`);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([{ path: 'machineHashCode', message: 'El identificador del dispositivo no es válido' }]);
    expect((await server.app.inject({ method: 'GET', url: machinesPaths.machines })).statusCode).toBe(401);
  });
});

describe('PATCH /api/machines/:id', () => {
  it('lets the owner rename and share it', async () => {
    const machine = await register(ana, 'PC Oficina');
    const response = await ana.patch(machineUrl(machine._id), { savedAs: '  Recepción ', shared: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ _id: machine._id, name: 'PC Oficina', savedAs: 'Recepción', shared: true, mine: true });
    // Its certificates now say the name it is saved as.
    expect((response.json() as Machine).certificates[0]?.machine.name).toBe('Recepción');
    expect((await machinesOf(luis)).map((m) => m.savedAs)).toEqual(['Recepción']);

    const unshared = await ana.patch(machineUrl(machine._id), { shared: false });
    expect(unshared.json()).toMatchObject({ savedAs: 'Recepción', shared: false });
    expect(await machinesOf(luis)).toEqual([]);
  });

  it('answers a colleague 403 on a shared machine, 404 on a private one, another firm 404; nothing changes', async () => {
    const shared = await register(ana, 'Compartido');
    const hidden = await register(ana, 'Privado');
    await ana.patch(machineUrl(shared._id), { shared: true });

    const forbidden = await luis.patch(machineUrl(shared._id), { savedAs: 'Mío' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'MACHINE_NOT_OWNER', message: 'Solo quien registró este dispositivo puede cambiarlo' });
    expect((await luis.patch(machineUrl(hidden._id), { shared: true })).statusCode).toBe(404);
    expect((await otherFirm.patch(machineUrl(shared._id), { shared: false })).statusCode).toBe(404);
    expect((await ana.patch(machineUrl('9b2f8f7e-8a3c-4a43-9d0e-1b9c6f3a2d11'), { shared: true })).statusCode).toBe(404);

    expect((await machinesOf(ana)).map((m) => [m.savedAs, m.shared])).toEqual([['Compartido', true], ['Privado', false]]);
  });

  it('refuses bad ids and bodies (400 in Spanish, nothing written)', async () => {
    const machine = await register(ana, 'PC Oficina');
    const badId = await ana.patch(machineUrl('no-es-un-id'), { shared: true });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().issues).toEqual([{ path: 'id', message: 'El identificador del dispositivo no es válido' }]);
    for (const body of [{ savedAs: '   ' }, { shared: 'sí' }, { owner: 'luis@asesoria.es' }, { savedAs: 'x'.repeat(101) }]) {
      expect((await ana.patch(machineUrl(machine._id), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await machinesOf(ana)).map((m) => [m.savedAs, m.shared])).toEqual([['PC Oficina', false]]);
    expect((await server.app.inject({ method: 'PATCH', url: machineUrl(machine._id), payload: { shared: true } })).statusCode).toBe(401);
  });
});

describe('DELETE /api/machines/:id', () => {
  it('lets the owner delete it, with its certificates and configs', async () => {
    const machine = await register(ana, 'PC Oficina');
    const kept = await register(ana, 'Portátil');
    const config = await ana.post(pathFor(machinesPaths.machineConfigs, { id: machine._id }), { name: 'Nóminas', cccList: [] });
    expect(config.statusCode).toBe(201);

    const response = await ana.request({ method: 'DELETE', url: machineUrl(machine._id) });
    expect(response.statusCode).toBe(204);
    expect((await machinesOf(ana)).map((m) => m._id)).toEqual([kept._id]);
    expect(server.countRows('machine_certificates')).toBe(1);
    expect(server.countRows('machine_configs')).toBe(0);
  });

  it('refuses anyone else: a colleague 403 on a shared one, otherwise 404 with the spec’s message', async () => {
    const machine = await register(ana, 'PC Oficina');
    const hidden = await register(ana, 'Privado');
    await ana.patch(machineUrl(machine._id), { shared: true });

    const colleague = await luis.request({ method: 'DELETE', url: machineUrl(machine._id) });
    expect(colleague.statusCode).toBe(403);
    expect(colleague.json().message).toBe('Solo quien registró este dispositivo puede eliminarlo');
    for (const [jar, id] of [[luis, hidden._id], [otherFirm, machine._id], [ana, '9b2f8f7e-8a3c-4a43-9d0e-1b9c6f3a2d11']] as const) {
      const response = await jar.request({ method: 'DELETE', url: machineUrl(id) });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(MACHINE_DELETE_FAILED_MESSAGE);
    }
    expect((await ana.request({ method: 'DELETE', url: machineUrl('x') })).statusCode).toBe(400);
    expect((await server.app.inject({ method: 'DELETE', url: machineUrl(machine._id) })).statusCode).toBe(401);
    expect(server.countRows('machines')).toBe(2);
  });

  it('goes when its owner’s account goes', async () => {
    await register(ana, 'PC Oficina');
    await withDatabase(server, (db) => db.deleteFrom('users').where('email', '=', 'ana@asesoria.es').execute());
    expect(server.countRows('machines')).toBe(0);
    expect(server.countRows('machine_certificates')).toBe(0);
  });
});
