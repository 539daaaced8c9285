import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowLog, FlowlogResponse } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { insertFlow, insertRun, memberOf } from './fixtures.ts';

const NOW = new Date('2025-03-20T10:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let anaMember: { userId: string; groupId: string };

beforeEach(async () => {
  server = await startTestServer({ now: () => NOW });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  anaMember = await memberOf(db, 'ana@asesoria.es');
  await insertFlow(db, { id: 'robot-de-prueba', name: 'Validar identificadores' });
  await insertFlow(db, { id: 'robot-retirado', name: 'Robot retirado', active: false });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const page = async (jar: CookieJar, query = ''): Promise<FlowlogResponse> => {
  const response = await jar.get(`/api/flowlog${query}`);
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('GET /api/flowlog', () => {
  it('pages the group’s runs newest first, 12 by default, with the total', async () => {
    for (let i = 0; i < 15; i += 1) {
      await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(i), usageUnits: i });
    }
    const first = await page(ana);
    expect(first.total).toBe(15);
    expect(first.items).toHaveLength(12);
    expect(first.items.map((run) => run.createAt)).toEqual(Array.from({ length: 12 }, (_, i) => minutesAgo(i)));
    const second = await page(ana, '?start=12&limit=12');
    expect(second.total).toBe(15);
    expect(second.items.map((run) => run.createAt)).toEqual([minutesAgo(12), minutesAgo(13), minutesAgo(14)]);
    const oldestFirst = await page(ana, '?sortdir=asc&limit=2');
    expect(oldestFirst.items.map((run) => run.createAt)).toEqual([minutesAgo(14), minutesAgo(13)]);
  });

  it('maps a run to the spec’s flow log: robot, user, usage, schedule, outputs', async () => {
    const scheduleId = randomUUID();
    await insertRun(db, {
      ...anaMember, flowId: 'robot-de-prueba', flowName: 'Validar identificadores', createdAt: minutesAgo(3),
      result: 'Success', usageUnits: 3, usageRatio: 2, successfulIterations: 250, totalIterations: 300,
      scheduleId, outputs: ['trabajadores.xlsx'],
    });
    await insertRun(db, { ...anaMember, flowId: 'robot-retirado', flowName: 'Robot retirado', createdAt: minutesAgo(2), result: 'Fail' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(1), result: null });

    const [running, gone, scheduled] = (await page(ana)).items as [FlowLog, FlowLog, FlowLog];
    expect(scheduled).toMatchObject({
      browserFlow: { _id: 'robot-de-prueba', name: 'Validar identificadores' },
      result: 'Success',
      state: 'finished',
      stoppedByUser: false,
      scheduled: true,
      browserFlowSchedule: { _id: scheduleId, machine: null },
      successfulIterations: 250,
      totalIterations: 300,
      usageHistory: [{ usageUnits: 3, usageRatio: 2 }],
      outputFileNames: ['trabajadores.xlsx'],
      outputFolder: null,
      user: { email: 'ana@asesoria.es', name: 'Ana Pérez' },
    });
    // The robot's folder is gone: the screen says 'Este robot ya no forma parte de nuestra familia'.
    expect(gone).toMatchObject({ browserFlow: { _id: 'robot-retirado', name: null }, result: 'Fail', scheduled: false, browserFlowSchedule: null, usageHistory: [] });
    expect(running).toMatchObject({ result: null, state: 'running', finishedAt: null });
  });

  it('filters manual, scheduled and one schedule’s runs, each with its own total', async () => {
    const scheduleId = randomUUID();
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(5) });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(4), scheduleId });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(3), scheduleId: randomUUID(), machineName: 'Oficina' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(2), scheduleId });

    const manual = await page(ana, '?scheduled=false');
    expect(manual.total).toBe(1);
    expect(manual.items.map((run) => run.createAt)).toEqual([minutesAgo(5)]);
    const scheduled = await page(ana, '?scheduled=true');
    expect(scheduled.total).toBe(3);
    expect(scheduled.items.map((run) => run.browserFlowSchedule?.machine?.name ?? null)).toEqual([null, 'Oficina', null]);
    const oneSchedule = await page(ana, `?browserFlowSchedule=${scheduleId}`);
    expect(oneSchedule.total).toBe(2);
    expect(oneSchedule.items.map((run) => run.createAt)).toEqual([minutesAgo(2), minutesAgo(4)]);
    expect((await page(ana)).total).toBe(4);
  });

  it('names a desktop run’s machine, tells remote launches (scheduled side) from local ones, and lists the files each kept', async () => {
    await insertFlow(db, { id: 'robot-de-escritorio', name: 'Descargar justificantes', runsOn: 'desktop' });
    const folder = 'C:\\Users\\ana\\AutoAsesor\\descargar-justificantes\\2025-03-20 10.57.00 1a2b3c4d';
    const pc = await linkPc(ana, 'despacho', 'PC del despacho');
    // Launched from the web on the office PC: its files went to the server.
    await insertRun(db, {
      ...anaMember, flowId: 'robot-de-escritorio', createdAt: minutesAgo(3), machine: { id: pc.machine._id, name: 'PC del despacho' }, remote: true,
      outputFolder: folder, outputFileNames: ['justificante 1.pdf'], outputs: ['justificante 1.pdf'],
    });
    // Launched in that PC's own window: its files stayed there.
    await insertRun(db, {
      ...anaMember, flowId: 'robot-de-escritorio', createdAt: minutesAgo(2), machine: { id: null, name: 'Portátil (eliminado)' },
      outputFolder: folder, outputFileNames: ['justificante 1.pdf', 'justificante 2.pdf'],
    });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(1), outputs: ['informe.xlsx'] });

    const [serverRun, local, remote] = (await page(ana)).items as [FlowLog, FlowLog, FlowLog];
    expect(remote).toMatchObject({ remote: true, scheduled: true, browserFlowSchedule: null, machine: { _id: pc.machine._id, name: 'PC del despacho' }, outputFolder: folder, outputFileNames: ['justificante 1.pdf'] });
    expect(local).toMatchObject({ remote: false, scheduled: false, machine: { _id: null, name: 'Portátil (eliminado)' }, outputFolder: folder, outputFileNames: ['justificante 1.pdf', 'justificante 2.pdf'] });
    expect(serverRun).toMatchObject({ remote: false, machine: null, outputFolder: null, outputFileNames: ['informe.xlsx'] });

    // 'Scheduled and remote launches' against manual ones, from the counters and from the rows alike.
    expect((await page(ana, '?scheduled=true')).items.map((run) => run.machine?.name)).toEqual(['PC del despacho']);
    expect((await page(ana, '?scheduled=true')).total).toBe(1);
    expect((await page(ana, '?scheduled=false')).total).toBe(2);
    const detail = (await ana.get(`/api/flowlog/${remote._id}`)).json() as FlowLog;
    expect(detail).toMatchObject({ remote: true, machine: { name: 'PC del despacho' } });
  });

  it('sorts by cost, result and robot name, ties by date', async () => {
    await insertFlow(db, { id: 'robot-de-fie', name: 'FIE a incidencias A3' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', flowName: 'Validar identificadores', createdAt: minutesAgo(3), usageUnits: 5, result: 'WrongInput' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-fie', flowName: 'FIE a incidencias A3', createdAt: minutesAgo(2), usageUnits: 1, result: 'Success' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-fie', flowName: 'FIE a incidencias A3', createdAt: minutesAgo(1), usageUnits: 9, result: 'Fail' });

    const costs = (await page(ana, '?sortby=cost&sortdir=desc')).items.map((run) => run.usageHistory[0]?.usageUnits);
    expect(costs).toEqual([9, 5, 1]);
    const results = (await page(ana, '?sortby=result&sortdir=asc')).items.map((run) => run.result);
    expect(results).toEqual(['Fail', 'Success', 'WrongInput']);
    const names = (await page(ana, '?sortby=browserFlow&sortdir=asc')).items.map((run) => [run.browserFlow.name, run.createAt]);
    expect(names).toEqual([['FIE a incidencias A3', minutesAgo(2)], ['FIE a incidencias A3', minutesAgo(1)], ['Validar identificadores', minutesAgo(3)]]);
  });

  it('refuses a bad query with the field path, in Spanish', async () => {
    for (const [query, path] of [
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?start=-1', 'start'],
      ['?sortby=password', 'sortby'],
      ['?sortdir=up', 'sortdir'],
      ['?scheduled=yes', 'scheduled'],
      ['?browserFlowSchedule=1%20or%201=1', 'browserFlowSchedule'],
    ] as const) {
      const response = await ana.get(`/api/flowlog${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION', message: 'Revisa los datos enviados', issues: [{ path }] });
    }
  });

  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/flowlog' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/flowlog/stats' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/flowlog/report' })).statusCode).toBe(401);
  });
});

describe('another group', () => {
  it('never sees the runs, their log or their count; its own history is empty', async () => {
    const runId = await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(1), logLines: [{ level: 'info', text: 'NIF 12345678Z' }] });
    const luis = await registerUser(server.app, 'luis@otra.es', 'Luis');
    expect(await page(luis)).toEqual({ total: 0, items: [] });
    const detail = await luis.get(`/api/flowlog/${runId}`);
    expect(detail.statusCode).toBe(404);
    expect(detail.json()).toMatchObject({ code: 'RUN_NOT_FOUND', message: 'No se ha encontrado esta ejecución' });
    expect(detail.body).not.toContain('12345678Z');
    expect((await luis.get('/api/flowlog/stats')).json()).toMatchObject({ total: 0, cost: 0 });
    // A colleague in Ana's group would see it: the scope is the group, checked by the run's group.
    expect((await ana.get(`/api/flowlog/${runId}`)).statusCode).toBe(200);
  });
});

describe('GET /api/flowlog/:id', () => {
  it('answers the run with its log lines in the order they were written', async () => {
    const runId = await insertRun(db, {
      ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(1), result: 'WrongInput',
      logLines: [{ level: 'info', text: 'Leyendo trabajadores.xlsx' }, { level: 'warn', text: 'Fila 4: NIF vacío' }, { level: 'error', text: 'Falta la columna NAF' }],
    });
    const response = await ana.get(`/api/flowlog/${runId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      _id: runId,
      result: 'WrongInput',
      logStreams: [
        { level: 'info', text: 'Leyendo trabajadores.xlsx', timestamp: minutesAgo(1) },
        { level: 'warn', text: 'Fila 4: NIF vacío' },
        { level: 'error', text: 'Falta la columna NAF' },
      ],
    });
  });

  it('404s an unknown id and 400s one that is not an id', async () => {
    expect((await ana.get(`/api/flowlog/${randomUUID()}`)).statusCode).toBe(404);
    const bad = await ana.get('/api/flowlog/no-es-un-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ issues: [{ path: 'id', message: 'El identificador de la ejecución no es válido' }] });
  });
});

describe('GET /api/flowlog/stats', () => {
  it('counts this billing period’s runs by result and the credits the ledger charged in it', async () => {
    // A trial of 14 days ending in 10 days began 4 days ago.
    const periodEnd = new Date(NOW.getTime() + 10 * 24 * 3_600_000).toISOString();
    await db.updateTable('subscriptions').set({ current_period_end: periodEnd }).where('group_id', '=', anaMember.groupId).execute();
    const periodStart = new Date(NOW.getTime() - 4 * 24 * 3_600_000);
    const before = new Date(periodStart.getTime() - 60_000).toISOString();
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: before, usageUnits: 100, charged: true });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(30), usageUnits: 4, usageRatio: 2.5, charged: true, successfulIterations: 8, totalIterations: 10 });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(20), usageUnits: 3, charged: true, successfulIterations: 3, totalIterations: 3 });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(10), result: 'NotEnoughSlans' });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(5), result: null });

    const response = await ana.get('/api/flowlog/stats');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ total: 4, byResult: { Success: 2, NotEnoughSlans: 1 }, cost: 13, successfulIterations: 11, totalIterations: 13 });
  });
});

describe('GET /api/flowlog/report', () => {
  it('is an .xlsx of the selection in Spanish, dated in Madrid', async () => {
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: '2025-03-19T23:30:00.000Z', usageUnits: 3, usageRatio: 2, successfulIterations: 9, totalIterations: 10 });
    await insertRun(db, { ...anaMember, flowId: 'robot-retirado', flowName: 'Robot retirado', createdAt: '2025-03-18T08:05:00.000Z', result: 'NotEnoughSlans', scheduleId: randomUUID() });
    await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: '2025-03-17T08:05:00.000Z', result: 'Fail', stoppedByUser: true, scheduleId: randomUUID(), machineName: 'Oficina' });

    const response = await ana.get('/api/flowlog/report');
    expect(response.statusCode).toBe(200);
    const { filename, base64 } = response.json() as { filename: string; base64: string };
    expect(filename).toBe('Historial de robots 20-03-2025.xlsx');
    const workbook = XLSX.read(Buffer.from(base64, 'base64'));
    const rows = XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets[workbook.SheetNames[0] ?? ''] as XLSX.WorkSheet, { header: 1 });
    expect(rows).toEqual([
      ['Robot', 'Tipo de lanzamiento', 'Fecha', 'Resultado', 'Coste', 'Sin errores'],
      ['Validar identificadores', 'Manual', '20/03/2025 00:30', 'Finalizado', 6, '9/10'],
      // No iterations: the cell is left empty (no empty-text cell).
      ['Robot retirado', 'Programado', '18/03/2025 09:05', 'Insuficientes slans', 0],
      ['Validar identificadores', 'Lanzamiento remoto', '17/03/2025 09:05', 'Robot detenido', 0],
    ]);

    const manualOnly = (await ana.get('/api/flowlog/report?scheduled=false')).json() as { base64: string };
    const manualRows = XLSX.utils.sheet_to_json(XLSX.read(Buffer.from(manualOnly.base64, 'base64')).Sheets.Historial as XLSX.WorkSheet);
    expect(manualRows).toHaveLength(1);
  });
});

describe('run counters', () => {
  it('count runs inserted side by side without losing one', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: minutesAgo(i), scheduleId: i % 4 === 0 ? randomUUID() : null })));
    expect((await page(ana)).total).toBe(20);
    expect((await page(ana, '?scheduled=true')).total).toBe(5);
    expect((await page(ana, '?scheduled=false')).total).toBe(15);
  });
});
