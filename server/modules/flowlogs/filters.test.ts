import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowlogResponse } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from './fixtures.ts';

// Madrid is UTC+1 in March 2025 (summer time starts on the 30th).
const NOW = new Date('2025-03-20T10:00:00.000Z');

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let luis: CookieJar;

/** Ana's firm: 'Validar' runs on the 17th, the 18th late at night and the 19th just after midnight (Madrid); one 'FIE' run on the 19th. */
const RUNS = {
  validar17: '2025-03-17T09:00:00.000Z',
  validar18Late: '2025-03-18T22:30:00.000Z', // 18/03 23:30 in Madrid
  validar19Early: '2025-03-18T23:30:00.000Z', // 19/03 00:30 in Madrid
  fie19: '2025-03-19T12:00:00.000Z',
};

beforeEach(async () => {
  server = await startTestServer({ now: () => NOW });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  luis = await registerUser(server.app, 'luis@otra.es', 'Luis Gil');
  await insertFlow(db, { id: 'validar', name: 'Validar identificadores' });
  await insertFlow(db, { id: 'fie-a3', name: 'FIE a incidencias A3' });
  const anaMember = await memberOf(db, 'ana@asesoria.es');
  const luisMember = await memberOf(db, 'luis@otra.es');
  await insertRun(db, { ...anaMember, flowId: 'validar', flowName: 'Validar identificadores', createdAt: RUNS.validar17, result: 'Success' });
  await insertRun(db, { ...anaMember, flowId: 'validar', flowName: 'Validar identificadores', createdAt: RUNS.validar18Late, result: 'Success' });
  await insertRun(db, { ...anaMember, flowId: 'validar', flowName: 'Validar identificadores', createdAt: RUNS.validar19Early, result: 'Fail' });
  await insertRun(db, { ...anaMember, flowId: 'fie-a3', flowName: 'FIE a incidencias A3', createdAt: RUNS.fie19, result: 'Success' });
  // Another firm's runs of the same robots on the same days: never listed to Ana.
  await insertRun(db, { ...luisMember, flowId: 'validar', flowName: 'Validar identificadores', createdAt: RUNS.validar19Early, result: 'Success' });
  await insertRun(db, { ...luisMember, flowId: 'fie-a3', flowName: 'FIE a incidencias A3', createdAt: RUNS.fie19, result: 'Success' });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const page = async (jar: CookieJar, query: string): Promise<FlowlogResponse> => {
  const response = await jar.get(`/api/flowlog${query}`);
  expect(response.statusCode, query).toBe(200);
  return response.json();
};
const dates = (response: FlowlogResponse) => response.items.map((run) => run.createAt);

describe('GET /api/flowlog filters', () => {
  it('filters by robot, by Madrid day range and by the robot’s name, with the total of the selection', async () => {
    const validar = await page(ana, '?flow=validar');
    expect(dates(validar)).toEqual([RUNS.validar19Early, RUNS.validar18Late, RUNS.validar17]);
    expect(validar.total).toBe(3);

    // Days are Madrid days: 23:30 on the 18th belongs to the 18th, 00:30 on the 19th to the 19th.
    expect(dates(await page(ana, '?from=2025-03-19'))).toEqual([RUNS.fie19, RUNS.validar19Early]);
    expect(dates(await page(ana, '?to=2025-03-18'))).toEqual([RUNS.validar18Late, RUNS.validar17]);
    const oneDay = await page(ana, '?from=2025-03-18&to=2025-03-18');
    expect(dates(oneDay)).toEqual([RUNS.validar18Late]);
    expect(oneDay.total).toBe(1);

    // Part of a robot's name, ignoring case and accents; '%' and '_' are plain characters.
    expect(dates(await page(ana, '?q=fie'))).toEqual([RUNS.fie19]);
    expect(dates(await page(ana, '?q=%20IDENTIF%20'))).toHaveLength(3);
    expect((await page(ana, '?q=%25')).total).toBe(0);
    expect((await page(ana, '?q=_')).total).toBe(0);
    expect(dates(await page(ana, '?q=IDENTIFICACI%C3%93N'))).toEqual([]);
    expect((await page(ana, '?q=identific%C3%A1dores')).total).toBe(3);
    // An empty search is no search.
    expect((await page(ana, '?q=')).total).toBe(4);
  });

  it('combines the filters with each other, the kind, the order and the page', async () => {
    const combined = await page(ana, '?flow=validar&from=2025-03-18&to=2025-03-19&q=valid');
    expect(dates(combined)).toEqual([RUNS.validar19Early, RUNS.validar18Late]);
    expect(combined.total).toBe(2);
    const secondPage = await page(ana, '?flow=validar&from=2025-03-18&limit=1&start=1&sortdir=asc');
    expect(dates(secondPage)).toEqual([RUNS.validar19Early]);
    expect(secondPage.total).toBe(2);
    expect((await page(ana, '?flow=validar&scheduled=true')).total).toBe(0);
    expect((await page(ana, '?flow=fie-a3&q=validar')).total).toBe(0);
    // The report takes the same filters.
    const report = await ana.get('/api/flowlog/report?flow=fie-a3');
    expect(report.statusCode).toBe(200);
  });

  it('never lists another firm’s runs, whatever the filter', async () => {
    for (const query of ['?flow=validar', '?from=2025-03-19', '?q=fie', '?flow=fie-a3&from=2025-03-19&to=2025-03-19']) {
      const luisPage = await page(luis, query);
      expect(luisPage.items.every((run) => run.user.email === 'luis@otra.es'), query).toBe(true);
    }
    expect((await page(luis, '?flow=validar')).total).toBe(1);
    expect((await page(luis, '?from=2025-03-17&to=2025-03-18')).total).toBe(0);
  });

  it('refuses bad values with a Spanish 400 naming the field', async () => {
    const before = await db.selectFrom('flow_runs').select((eb) => eb.fn.countAll<number>().as('runs')).executeTakeFirstOrThrow();
    for (const [query, path, message] of [
      ['?flow=1%27%20or%201=1', 'flow', 'El robot elegido no es válido'],
      ['?from=19-03-2025', 'from', 'La fecha «Desde» no es válida (aaaa-mm-dd)'],
      ['?to=2025-02-30', 'to', 'La fecha «Hasta» no es válida (aaaa-mm-dd)'],
      ['?from=2025-03-19&to=2025-03-18', 'to', 'La fecha «Hasta» es anterior a «Desde»'],
      [`?q=${'a'.repeat(101)}`, 'q', 'La búsqueda no puede superar 100 caracteres'],
    ] as const) {
      const response = await ana.get(`/api/flowlog${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION', issues: [{ path, message }] });
      expect((await ana.get(`/api/flowlog/report${query}`)).statusCode, query).toBe(400);
    }
    const after = await db.selectFrom('flow_runs').select((eb) => eb.fn.countAll<number>().as('runs')).executeTakeFirstOrThrow();
    expect(Number(after.runs)).toBe(Number(before.runs));
  });

});
