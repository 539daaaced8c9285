import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notificationsPaths, type LemaEnvio } from '#shared/api/notifications.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { Clock, envio, firmWithPc, page, realizada, upsert, type TestFirm } from './test-support.ts';

let server: TestServer;
let clock: Clock;
let firm: TestFirm;

/** Five notifications and a comunicación of two titulares, dated across March 2026 (Madrid days). */
const items: LemaEnvio[] = [
  envio({ identificador: 'A', titular: { nombre: 'ANA GARCÍA', nif: '12345678Z' }, organismoEmisor: { codigo: 'E1', nombre: 'Agencia Tributaria' }, codigoProcedimiento: 'G322', concepto: 'Requerimiento IVA', fechaPuestaDisposicion: '2026-03-01T00:30:00+01:00' }),
  envio({ identificador: 'B', titular: { nombre: 'BEATRIZ MUÑOZ', nif: '87654321X' }, organismoEmisor: { codigo: 'E2', nombre: 'Seguridad Social' }, codigoProcedimiento: 'S100', concepto: 'Embargo de cuentas', fechaPuestaDisposicion: '2026-03-02T23:30:00+01:00' }),
  envio({ identificador: 'C', titular: { nombre: 'CARLOS PÉREZ', nif: '11111111H' }, organismoEmisor: { codigo: 'E3', nombre: 'Dirección General de Tráfico' }, codigoProcedimiento: null, concepto: 'Sanción 50% de tráfico', fechaPuestaDisposicion: '2026-03-04T10:00:00+01:00' }),
  envio({ identificador: 'D', titular: { nombre: 'DAVID ÁLVAREZ', nif: '22222222J' }, organismoEmisor: { codigo: 'E1', nombre: 'Agencia Tributaria' }, codigoProcedimiento: 'G999', concepto: 'Liquidación provisional', fechaPuestaDisposicion: '2026-03-06T12:00:00+01:00' }),
  envio({ identificador: 'E', titular: { nombre: 'ELENA RUIZ', nif: '33333333P' }, organismoEmisor: { codigo: 'E4', nombre: 'Ayuntamiento de Madrid' }, codigoProcedimiento: 'M001', concepto: 'Comunicación informativa', tipoEnvio: 1, fechaPuestaDisposicion: '2026-03-08T08:00:00+01:00' }),
];

beforeEach(async () => {
  clock = new Clock();
  server = await startTestServer({ now: clock.now });
  firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
  const [first = items[0]!, ...rest] = items;
  await upsert(firm.device, firm.fingerprints[0], [first, ...rest.slice(0, 3)], [realizada(envio({ identificador: 'Z', titular: { nombre: 'ZOE LÓPEZ', nif: '44444444A' } }))]);
  await upsert(firm.device, firm.fingerprints[1], [rest[3]!]);
});
afterEach(async () => server.close());

const ids = (result: { items: { identificador: string }[] }) => result.items.map((item) => item.identificador);

describe('GET /api/notifications', () => {
  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'GET', url: notificationsPaths.list })).statusCode).toBe(401);
  });

  it('lists the pending ones by default, titular desc, with their certificate, machine and caducidad', async () => {
    const result = await page(firm.jar);
    expect(result.total).toBe(5);
    expect(ids(result)).toEqual(['E', 'D', 'C', 'B', 'A']);
    const a = result.items.find((item) => item.identificador === 'A');
    expect(a).toMatchObject({
      titular: 'ANA GARCÍA', titularNif: '12345678Z', organoEmisor: 'Agencia Tributaria', organismoRaiz: 'Ministerio de Hacienda', tipo: 'notificacion', vinculo: 'titular',
      estado: 'pendiente', disposicion: '2026-02-28T23:30:00.000Z', caducidad: '2026-03-10T23:30:00.000Z', documentCount: 0, openedBy: null,
      certificate: { fingerprint: firm.fingerprints[0], machine: { _id: firm.machineId } },
    });
    expect(result.items.find((item) => item.identificador === 'E')).toMatchObject({ tipo: 'comunicacion', caducidad: null });
  });

  it('shows realizadas and todas', async () => {
    expect(ids(await page(firm.jar, '?view=realizadas'))).toEqual(['Z']);
    expect((await page(firm.jar, '?view=todas')).total).toBe(6);
  });

  it.each([
    ['titular', ['A', 'B', 'C', 'D', 'E'], ['E', 'D', 'C', 'B', 'A']],
    ['codProcedimiento', ['A', 'D', 'E', 'B', 'C'], ['B', 'E', 'D', 'A', 'C']],
    ['concepto', ['E', 'B', 'D', 'A', 'C'], ['C', 'A', 'D', 'B', 'E']],
    ['disposicion', ['A', 'B', 'C', 'D', 'E'], ['E', 'D', 'C', 'B', 'A']],
    ['caducidad', ['A', 'B', 'C', 'D', 'E'], ['D', 'C', 'B', 'A', 'E']],
  ])('sorts by %s both ways (empty values last either way)', async (sortby, ascending, descending) => {
    expect(ids(await page(firm.jar, `?sortby=${sortby}&sortdir=asc`))).toEqual(ascending);
    expect(ids(await page(firm.jar, `?sortby=${sortby}&sortdir=desc`))).toEqual(descending);
  });

  it('sorts by organismo both ways, ties by id in the same direction', async () => {
    const all = (await page(firm.jar)).items;
    const byId = all.filter((item) => item.organoEmisor === 'Agencia Tributaria').sort((a, b) => (a._id < b._id ? -1 : 1)).map((item) => item.identificador);
    expect(ids(await page(firm.jar, '?sortby=organoEmisor&sortdir=asc'))).toEqual([...byId, 'E', 'C', 'B']);
    expect(ids(await page(firm.jar, '?sortby=organoEmisor&sortdir=desc'))).toEqual(['B', 'C', 'E', ...byId.reverse()]);
  });

  it('pages with a stable total', async () => {
    const first = await page(firm.jar, '?sortby=titular&sortdir=asc&pageSize=2&page=1');
    const second = await page(firm.jar, '?sortby=titular&sortdir=asc&pageSize=2&page=2');
    const third = await page(firm.jar, '?sortby=titular&sortdir=asc&pageSize=2&page=3');
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(['A', 'B', 'C', 'D', 'E']);
    // Past the end: the last page, and its number (issue 43).
    expect(await page(firm.jar, '?sortby=titular&sortdir=asc&pageSize=2&page=9')).toMatchObject({ page: 3, items: third.items });
  });

  it('searches titular, NIF, organismo, procedure and concepto, ignoring accents and case; LIKE wildcards are literal', async () => {
    const search = async (text: string) => ids(await page(firm.jar, `?sortby=titular&sortdir=asc&search=${encodeURIComponent(text)}`));
    expect(await search('garcia')).toEqual(['A']);
    expect(await search('MUNOZ')).toEqual(['B']);
    expect(await search('87654321x')).toEqual(['B']);
    expect(await search('tráfico')).toEqual(['C']);
    expect(await search('g999')).toEqual(['D']);
    expect(await search('agencia')).toEqual(['A', 'D']);
    expect(await search('50%')).toEqual(['C']);
    expect(await search('%')).toEqual(['C']);
    expect(await search('_')).toEqual([]);
  });

  it('filters disposición and caducidad by Madrid days, both ends included', async () => {
    const filter = async (query: string) => ids(await page(firm.jar, `?sortby=titular&sortdir=asc&${query}`));
    // A was put at 00:30 on 1 March in Madrid (still 28 February in UTC).
    expect(await filter('disposicion=2026-03-01..2026-03-01')).toEqual(['A']);
    expect(await filter('disposicion=2026-02-28..2026-02-28')).toEqual([]);
    // B at 23:30 on 2 March in Madrid (3 March in UTC).
    expect(await filter('disposicion=2026-03-02..2026-03-04')).toEqual(['B', 'C']);
    expect(await filter('disposicion=2026-03-06..')).toEqual(['D', 'E']);
    expect(await filter('disposicion=..2026-03-02')).toEqual(['A', 'B']);
    // Caducidad: ten natural days later; a comunicación has none.
    expect(await filter('caducidad=2026-03-11..2026-03-12')).toEqual(['A', 'B']);
    expect(await filter('caducidad=2026-03-16..')).toEqual(['D']);
    expect(await filter('caducidad=2026-03-01..2026-03-20&search=agencia')).toEqual(['A', 'D']);
  });

  it('filters by certificate', async () => {
    expect(ids(await page(firm.jar, `?certificate=${firm.fingerprints[1]}`))).toEqual(['E']);
  });

  it.each([
    ['sortby=fecha'],
    ['sortdir=up'],
    ['view=archivadas'],
    ['disposicion=2026-03-05..2026-03-01'],
    ['caducidad=ayer..hoy'],
    ['page=0'],
    ['pageSize=101'],
    ['certificate=abc'],
  ])('refuses %s with a Spanish 400', async (query) => {
    const response = await firm.jar.get(`${notificationsPaths.list}?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', issues: [{ message: expect.any(String) }] });
  });

  it("never lists or shows another firm's notifications", async () => {
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    await upsert(other.device, other.fingerprints[0], [envio({ identificador: 'A', titular: { nombre: 'OTRA EMPRESA', nif: '55555555K' } })]);
    expect((await page(other.jar, '?view=todas')).total).toBe(1);
    expect((await page(firm.jar, '?view=todas')).total).toBe(6);
    const mine = (await page(firm.jar)).items[0]!;
    expect((await other.jar.get(notificationsPaths.one.replace(':id', mine._id))).statusCode).toBe(404);
    expect((await firm.jar.get(notificationsPaths.one.replace(':id', mine._id))).statusCode).toBe(200);
    expect((await page(other.jar, `?search=garcia&view=todas`)).total).toBe(0);
  });
});
