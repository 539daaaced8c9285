import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { buildApp } from '../../app.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DESKTOP_FLOW_ID, SHORT_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch, upload, workbook } from './test-support.ts';

/** Reads and arranges rows the way another server process would: through its own connection. */
async function withDatabase<T>(server: TestServer, use: (db: ReturnType<typeof connectDatabase>) => Promise<T>): Promise<T> {
  const db = connectDatabase(server.database);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

async function groupOf(server: TestServer, email: string): Promise<string> {
  return withDatabase(server, async (db) => (await db.selectFrom('users').select('group_id').where('email', '=', email).executeTakeFirstOrThrow()).group_id);
}

async function usedSlans(server: TestServer, email: string): Promise<number> {
  const groupId = await groupOf(server, email);
  return withDatabase(server, async (db) => Number((await db.selectFrom('subscriptions').select('used_slans').where('group_id', '=', groupId).executeTakeFirstOrThrow()).used_slans));
}

async function runRow(server: TestServer, runId: string) {
  return withDatabase(server, (db) => db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow());
}

const stateUrl = (token: string) => `/api/browserflow/execution/state/${token}`;

/** Waits until the run is running (its worker has started and said its first line). */
async function untilRunning(jar: CookieJar, token: string): Promise<void> {
  for (let tries = 0; tries < 40; tries += 1) {
    const state = (await jar.get(`${stateUrl(token)}?wait=2&since=0`)).json() as ExecutionStateResponse;
    if (state.state === 'running' && state.consoleLog.length > 0) return;
  }
  throw new Error('la ejecución no ha empezado');
}

describe('executions of the test robot', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer(TEST_FLOWS_CONFIG);
  });
  afterEach(async () => server.close());

  it('runs off the request thread, debits the ledger once and offers the outputs for download', async () => {
    const jar = await registerUser(server.app, 'ana@asesoria.es');
    const [book] = await upload(jar, [{ name: 'plantilla.xlsx', data: workbook([['NIF', 'Nombre'], ['12345678Z', 'Ana'], ['X1234567L', 'Luis']]) }]);
    const response = await launch(jar, TEST_FLOW_ID, { mode: 'ok', copies: '2', workbook: [{ uploadId: book?.id, name: 'plantilla.xlsx' }] });
    expect(response.statusCode, response.body).toBe(202);
    const started = response.json() as ExecutionStateResponse;
    expect(['queued', 'running']).toContain(started.state);
    expect(started.output).toBeUndefined();

    const done = await finishedState(jar, started.executionToken);
    expect(done.output?.status, JSON.stringify(done)).toBe(200);
    expect(done.output?.data).toEqual({
      runId: started.runId,
      files: [{ name: 'resultado 1.txt', size: expect.any(Number) }, { name: 'resultado 2.txt', size: expect.any(Number) }],
      usageUnits: 2,
      usageRatio: 2,
      cost: 4,
      summary: { filas: 2, bien: true },
    });
    expect(done.consoleLog).toEqual(['Empiezo en modo ok', 'Filas: 2']);
    expect([done.successfulIterations, done.totalIterations]).toEqual([2, 2]);

    // The robot got the checked inputs (a number for Number) and the file by its input key.
    const download = await jar.get(`/api/flowlog/${started.runId}/outputs/${encodeURIComponent('resultado 1.txt')}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('filename="resultado 1.txt"');
    expect(JSON.parse(download.body)).toMatchObject({ inputs: { mode: 'ok', copies: 2, columns: {} }, files: ['workbook'] });

    expect(server.countRows('credit_ledger')).toBe(1);
    expect(await usedSlans(server, 'ana@asesoria.es')).toBe(4);
    const run = await runRow(server, started.runId);
    expect(run).toMatchObject({ state: 'finished', result: 'Success', launch_status: 200, cost: 4, lease_owner: null });

    // Asking again changes nothing: the run is closed once.
    const again = await jar.get(stateUrl(started.executionToken));
    expect((again.json() as ExecutionStateResponse).output?.data.cost).toBe(4);
    expect(server.countRows('credit_ledger')).toBe(1);
  });

  it('long-polls: answers lines past `since` at once, and waits on a run with nothing new', async () => {
    const jar = await registerUser(server.app, 'espera@asesoria.es');
    const token = (await launch(jar, TEST_FLOW_ID, { mode: 'wait' })).json().executionToken as string;
    await untilRunning(jar, token);
    const seen = (await jar.get(`${stateUrl(token)}?since=0`)).json() as ExecutionStateResponse;
    expect(seen.consoleLog).toEqual(['Empiezo en modo wait']);
    expect([seen.successfulIterations, seen.totalIterations]).toEqual([0, 10]);
    const started = Date.now();
    const idle = (await jar.get(`${stateUrl(token)}?wait=2&since=1`)).json() as ExecutionStateResponse;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(idle).toMatchObject({ state: 'running', consoleLog: [] });
    await jar.post(`${stateUrl(token)}/stop`);
    const done = (await jar.get(`${stateUrl(token)}?since=1`)).json() as ExecutionStateResponse;
    expect(done.consoleLog).toEqual(['Robot detenido']);
    expect(done.output?.consoleLog).toEqual(['Empiezo en modo wait', 'Robot detenido']);
  });

  it('starts one run and charges once for a request sent twice with the same idempotency key', async () => {
    const jar = await registerUser(server.app, 'doble@asesoria.es');
    const body = { inputs: { mode: 'ok' }, idempotencyKey: randomUUID() };
    const [first, second] = await Promise.all([jar.post(`/api/browserflow/execution/${TEST_FLOW_ID}`, body), jar.post(`/api/browserflow/execution/${TEST_FLOW_ID}`, body)]);
    expect([first?.statusCode, second?.statusCode]).toEqual([202, 202]);
    const token = (first?.json() as ExecutionStateResponse).executionToken;
    expect((second?.json() as ExecutionStateResponse).executionToken).toBe(token);
    await finishedState(jar, token);
    const third = await jar.post(`/api/browserflow/execution/${TEST_FLOW_ID}`, body);
    expect((third.json() as ExecutionStateResponse).output?.status).toBe(200);
    expect(server.countRows('flow_runs')).toBe(1);
    expect(server.countRows('credit_ledger')).toBe(1);
    expect(await usedSlans(server, 'doble@asesoria.es')).toBe(2);
  });

  it('refuses a launch beyond the balance with 402, records it as NotEnoughSlans and charges nothing', async () => {
    const jar = await registerUser(server.app, 'sin-saldo@asesoria.es');
    const groupId = await groupOf(server, 'sin-saldo@asesoria.es');
    // The trial's 500 slans, 499 of them used.
    await withDatabase(server, (db) => db.updateTable('subscriptions').set({ used_slans: 499 }).where('group_id', '=', groupId).execute());
    const [book] = await upload(jar, [{ name: 'lista.csv', data: 'NIF;Nombre\n12345678Z;Ana\nX1234567L;Luis\n' }]);
    const inputs = { mode: 'ok', workbook: [{ uploadId: book?.id, name: 'lista.csv' }] };

    const refused = await launch(jar, TEST_FLOW_ID, inputs, { acceptExtraUsage: true });
    expect(refused.statusCode).toBe(402);
    // 2 rows × 2 slans a row = 4 estimated, 1 left; a trial never runs on extra usage.
    expect(refused.json()).toEqual({
      statusCode: 402,
      code: 'NOT_ENOUGH_CREDITS',
      message: 'Insuficientes slans: este robot cuesta unos 4 slans y te quedan 1 slan',
      details: { balance: 1, estimatedCost: 4, canContinue: false, extraSlanPrice: null },
    });
    const [run] = await withDatabase(server, (db) => db.selectFrom('flow_runs').selectAll().execute());
    expect(run).toMatchObject({ state: 'finished', result: 'NotEnoughSlans', launch_status: 402, cost: 0, idempotency_key: null });
    expect(server.countRows('credit_ledger')).toBe(0);
    expect(await usedSlans(server, 'sin-saldo@asesoria.es')).toBe(499);
    const history = await jar.get(`/api/flowlog/${run?.id}`);
    expect(history.json()).toMatchObject({ result: 'NotEnoughSlans', logStreams: [{ text: refused.json().message }] });

    // On a paid plan the user may accept extra usage ('Continuar'), and the run goes ahead.
    await withDatabase(server, async (db) => {
      const basic = await db.selectFrom('plans').select('id').where('ref', '=', 'basic').executeTakeFirstOrThrow();
      await db.updateTable('subscriptions').set({ plan_id: basic.id, status: 'active', used_slans: 2_000 }).where('group_id', '=', groupId).execute();
    });
    const paidRefusal = await launch(jar, TEST_FLOW_ID, inputs);
    expect(paidRefusal.statusCode).toBe(402);
    // The prompt can say what the extra costs: the plan's € per slan.
    expect(paidRefusal.json().details).toEqual({ balance: 0, estimatedCost: 4, canContinue: true, extraSlanPrice: 0.03 });
    const extra = await launch(jar, TEST_FLOW_ID, inputs, { acceptExtraUsage: true });
    expect(extra.statusCode).toBe(202);
    expect((await finishedState(jar, extra.json().executionToken)).output?.data.cost).toBe(4);
    expect(await usedSlans(server, 'sin-saldo@asesoria.es')).toBe(2_004);

    // A subscription past its period is inactive: nothing runs, whatever the estimate.
    await withDatabase(server, (db) => db.updateTable('subscriptions').set({ current_period_end: '2020-01-01T00:00:00.000Z', used_slans: 0 }).where('group_id', '=', groupId).execute());
    const inactive = await launch(jar, TEST_FLOW_ID, { mode: 'ok' }, { acceptExtraUsage: true });
    expect(inactive.statusCode).toBe(402);
    expect(inactive.json()).toMatchObject({ message: 'Tu suscripción no está activa: renuévala para lanzar robots', details: { canContinue: false } });
  });

  it('stops a run at its time limit: 504, the log says so, nothing charged', async () => {
    const jar = await registerUser(server.app, 'lento@asesoria.es');
    const response = await launch(jar, SHORT_FLOW_ID, { mode: 'hang' });
    const done = await finishedState(jar, response.json().executionToken);
    expect(done.output?.status).toBe(504);
    expect(done.output?.data).toMatchObject({ message: 'Tiempo límite superado', cost: 0, files: [] });
    expect(done.consoleLog.at(-1)).toBe('Tiempo límite superado: el robot llevaba 2 s y se ha detenido');
    expect(await runRow(server, done.runId)).toMatchObject({ result: 'Fail', launch_status: 504 });
    expect(server.countRows('credit_ledger')).toBe(0);
  });

  it('survives a robot that crashes, throws or runs out of memory (500 each), and runs the next one', async () => {
    const jar = await registerUser(server.app, 'roto@asesoria.es');
    const crash = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'crash' })).json().executionToken);
    expect(crash.output?.status).toBe(500);
    expect(crash.consoleLog.at(-1)).toBe('El robot se ha detenido por un error: fallo fuera de control');
    const thrown = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'throw' })).json().executionToken);
    expect(thrown.output?.status).toBe(500);
    expect(thrown.consoleLog.at(-1)).toBe('El robot ha fallado: el robot ha fallado');
    const greedy = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'oom' })).json().executionToken, 60_000);
    expect(greedy.output?.status).toBe(500);
    expect(greedy.consoleLog.at(-1)).toBe('El robot se ha detenido por un error: El robot se ha quedado sin memoria');
    // The shape that aborts a whole process from a worker thread: here it ends its own process only.
    const oneArray = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'oom-one-array' })).json().executionToken, 60_000);
    expect(oneArray.output).toMatchObject({ status: 500, data: { cost: 0 } });
    expect(oneArray.consoleLog.at(-1)).toBe('El robot se ha detenido por un error: El robot se ha quedado sin memoria');
    const failed = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'fail' })).json().executionToken);
    expect(failed.output).toMatchObject({ status: 500, data: { message: 'No se pudo entrar en la web', cost: 0 } });
    const wrong = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'wrong-input' })).json().executionToken);
    expect(wrong.output).toMatchObject({ status: 242, data: { message: 'El libro está vacío' } });

    const next = await finishedState(jar, (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json().executionToken);
    expect(next.output?.status).toBe(200);
    expect(server.countRows('credit_ledger')).toBe(1);
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 90_000);

  it('stops a run when the user asks: 202 Robot detenido, FlowAborted, nothing charged', async () => {
    const jar = await registerUser(server.app, 'para@asesoria.es');
    const token = (await launch(jar, TEST_FLOW_ID, { mode: 'wait' })).json().executionToken as string;
    await untilRunning(jar, token);
    const stopped = await jar.post(`${stateUrl(token)}/stop`);
    expect(stopped.statusCode).toBe(200);
    const state = stopped.json() as ExecutionStateResponse;
    expect(state.output).toMatchObject({ status: 202, data: { message: 'Robot detenido', cost: 0, usageUnits: 0 } });
    expect(state.consoleLog.at(-1)).toBe('Robot detenido');
    expect(await runRow(server, state.runId)).toMatchObject({ result: 'FlowAborted', launch_status: 202, stopped_by_user: 1 });
    expect(server.countRows('credit_ledger')).toBe(0);
    // Stopping a finished run changes nothing.
    expect((await jar.post(`${stateUrl(token)}/stop`)).json()).toMatchObject({ output: { status: 202 } });
  });

  it('hides another group’s runs, outputs and uploads (404), and refuses to launch with their files', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const luis = await registerUser(server.app, 'luis@otra-asesoria.es');
    const [file] = await upload(ana, [{ name: 'ana.csv', data: 'NIF\n12345678Z\n' }]);
    const done = await finishedState(ana, (await launch(ana, TEST_FLOW_ID, { mode: 'ok', workbook: [{ uploadId: file?.id, name: 'ana.csv' }] })).json().executionToken);

    expect((await luis.get(stateUrl(done.executionToken))).statusCode).toBe(404);
    expect((await luis.post(`${stateUrl(done.executionToken)}/stop`)).statusCode).toBe(404);
    const output = await luis.get(`/api/flowlog/${done.runId}/outputs/resultado.txt`);
    expect(output.statusCode).toBe(404);
    expect(output.json()).toMatchObject({ code: 'OUTPUT_NOT_FOUND' });
    expect((await ana.get(`/api/flowlog/${done.runId}/outputs/otro.txt`)).statusCode).toBe(404);
    expect((await ana.get(`/api/flowlog/${done.runId}/outputs/resultado.txt`)).statusCode).toBe(200);

    const runsBefore = server.countRows('flow_runs');
    const borrowed = await launch(luis, TEST_FLOW_ID, { mode: 'ok', workbook: [{ uploadId: file?.id, name: 'ana.csv' }] });
    expect(borrowed.statusCode).toBe(400);
    expect(borrowed.json()).toMatchObject({ issues: [{ path: 'inputs.workbook.0.uploadId', message: 'No se ha encontrado este archivo' }] });
    expect(server.countRows('flow_runs')).toBe(runsBefore);
  });

  it('answers bad bodies with 400 and the field paths, writing nothing', async () => {
    const jar = await registerUser(server.app, 'mal@asesoria.es');
    const url = `/api/browserflow/execution/${TEST_FLOW_ID}`;
    const noKey = await jar.post(url, { inputs: { mode: 'ok' } });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().issues).toEqual([{ path: 'idempotencyKey', message: expect.any(String) }]);
    const notObject = await jar.post(url, { inputs: ['ok'], idempotencyKey: randomUUID(), arguments: 'x' });
    expect(notObject.json().issues.map((issue: { path: string }) => issue.path)).toEqual(['arguments', 'inputs']);

    const [text] = await upload(jar, [{ name: 'notas.txt', data: 'hola' }]);
    const bad = await launch(jar, TEST_FLOW_ID, { mode: 'volar', nif: '12345678A', copies: 9, workbook: [{ uploadId: text?.id, name: 'notas.txt' }], columns: { iban: 'IBAN' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([
      { path: 'inputs.mode', message: 'Elige una de las opciones' },
      { path: 'inputs.nif', message: 'La letra del NIF no es correcta' },
      { path: 'inputs.copies', message: 'Introduce un número entre 1 y 5' },
      { path: 'inputs.workbook.0.uploadId', message: 'Este robot no admite archivos como «notas.txt»' },
      { path: 'inputs.columns', message: 'Este robot no comprueba la columna «iban»' },
    ]);
    const missing = await launch(jar, TEST_FLOW_ID, { workbook: 'x' });
    expect(missing.json().issues).toEqual([
      { path: 'inputs.mode', message: 'Este campo es obligatorio' },
      { path: 'inputs.workbook', message: 'Sube los archivos antes de lanzar el robot' },
    ]);
    expect((await jar.post(`/api/browserflow/execution/${'x'.repeat(65)}`, { inputs: {}, idempotencyKey: randomUUID() })).statusCode).toBe(400);
    expect((await jar.get(`${stateUrl('abc')}?wait=99`)).json().issues).toEqual([{ path: 'wait', message: expect.any(String) }]);
    expect(server.countRows('flow_runs')).toBe(0);
  });

  it('refuses unknown flows (404) and desktop flows without a machine (400) without writing a run', async () => {
    const jar = await registerUser(server.app, 'escritorio@asesoria.es');
    const unknown = await launch(jar, 'no-existe', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Este robot ya no forma parte de nuestra familia' });
    // Desktop flows run on a machine (server/modules/devices covers the rest).
    const desktop = await launch(jar, DESKTOP_FLOW_ID, {});
    expect(desktop.statusCode).toBe(400);
    expect(desktop.json()).toMatchObject({ code: 'MACHINE_REQUIRED', message: 'Este robot necesita un dispositivo' });
    expect((await server.app.inject({ method: 'POST', url: `/api/browserflow/execution/${TEST_FLOW_ID}`, payload: { inputs: {}, idempotencyKey: randomUUID() } })).statusCode).toBe(401);
    expect(server.countRows('flow_runs')).toBe(0);
  });
});

describe('executions queue', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  it('queues runs past RUN_CONCURRENCY in order, and a queued run stopped ends at once', async () => {
    server = await startTestServer({ ...TEST_FLOWS_CONFIG, runs: { ...TEST_FLOWS_CONFIG.runs, concurrency: 1 } });
    const jar = await registerUser(server.app, 'cola@asesoria.es');
    const first = (await launch(jar, TEST_FLOW_ID, { mode: 'wait' })).json() as ExecutionStateResponse;
    const second = (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse;
    const third = (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse;
    await untilRunning(jar, first.executionToken);
    expect(((await jar.get(stateUrl(second.executionToken))).json() as ExecutionStateResponse).state).toBe('queued');
    const stoppedWhileQueued = (await jar.post(`${stateUrl(second.executionToken)}/stop`)).json() as ExecutionStateResponse;
    expect(stoppedWhileQueued.output).toMatchObject({ status: 202, data: { message: 'Robot detenido' } });
    await jar.post(`${stateUrl(first.executionToken)}/stop`);
    expect((await finishedState(jar, third.executionToken)).output?.status).toBe(200);
    expect((await runRow(server, second.runId)).started_at).toBeNull();
  });

  it('closes at start-up a run whose server died (claim expired) as FlowAborted 299, not charged, and runs what was left queued', async () => {
    // One slot: the second run is still waiting when the server goes down.
    const oneSlot = { ...TEST_FLOWS_CONFIG, runs: { ...TEST_FLOWS_CONFIG.runs, concurrency: 1 } };
    server = await startTestServer(oneSlot);
    const jar = await registerUser(server.app, 'caida@asesoria.es');
    const { runId, executionToken } = (await launch(jar, TEST_FLOW_ID, { mode: 'wait' })).json() as ExecutionStateResponse;
    const queued = (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse;
    await untilRunning(jar, executionToken);
    await server.app.close();
    expect(await runRow(server, queued.runId)).toMatchObject({ state: 'queued' });
    // A clean stop closes its own runs; a killed process leaves them claimed, with a lease that runs out.
    expect(await runRow(server, runId)).toMatchObject({ result: 'FlowAborted', launch_status: 299 });
    await withDatabase(server, (db) =>
      db.updateTable('flow_runs').set({ state: 'running', result: null, launch_status: null, finished_at: null, lease_owner: 'muerto', lease_until: '2020-01-01T00:00:00.000Z' }).where('id', '=', runId).execute(),
    );
    const again = await buildApp({ database: server.database, storageDir: `${server.dir}/storage`, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], ...oneSlot });
    try {
      expect(await runRow(server, runId)).toMatchObject({ state: 'finished', result: 'FlowAborted', launch_status: 299, stopped_by_user: 0, cost: 0 });
      const logs = await withDatabase(server, (db) => db.selectFrom('flow_run_logs').select('text').where('run_id', '=', runId).orderBy('seq').execute());
      expect(logs.at(-1)?.text).toBe('El servidor que ejecutaba este robot se detuvo antes de terminar. No se ha cobrado.');
      for (let tries = 0; tries < 100 && (await runRow(server, queued.runId)).state !== 'finished'; tries += 1) await new Promise((done) => setTimeout(done, 200));
      expect(await runRow(server, queued.runId)).toMatchObject({ result: 'Success', launch_status: 200 });
    } finally {
      await again.close();
    }
  }, 60_000);
});

describe('the built-in flow validar-identificadores', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  it('checks a real workbook and gives back a workbook with the Resultado columns, charged per 100 rows', async () => {
    server = await startTestServer();
    const jar = await registerUser(server.app, 'identificadores@asesoria.es');
    const fixture = await readFile(new URL('../../../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url));
    const [book] = await upload(jar, [{ name: 'trabajadores.xlsx', data: fixture }]);
    const columns = (await jar.get(`/api/storage/uploads/${book?.id}/columns`)).json() as { columns: string[]; rowCount: number };
    expect(columns.columns).toContain('DNI/NIE');

    const response = await launch(jar, 'validar-identificadores', { workbook: [{ uploadId: book?.id, name: 'trabajadores.xlsx' }], columns: { nif: 'DNI/NIE' } });
    expect(response.statusCode, response.body).toBe(202);
    const done = await finishedState(jar, response.json().executionToken, 60_000);
    expect(done.output?.status, JSON.stringify(done.consoleLog)).toBe(200);
    const units = Math.ceil(columns.rowCount / 100);
    expect(done.output?.data).toMatchObject({ usageUnits: units, usageRatio: 1, cost: units, files: [{ name: 'trabajadores validado.xlsx' }] });
    // Iterations are rows valid of rows checked, not rows done: 2 of the 5 NIF/NIE cells are wrong (issue 21).
    expect([done.successfulIterations, done.totalIterations]).toEqual([3, 5]);

    const download = await jar.request({ method: 'GET', url: `/api/flowlog/${done.runId}/outputs/${encodeURIComponent('trabajadores validado.xlsx')}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const output = XLSX.read(download.rawPayload, { type: 'buffer' });
    expect(output.SheetNames).toContain('Resumen');
    const rows = XLSX.utils.sheet_to_json<string[]>(output.Sheets[output.SheetNames[0] ?? ''] as XLSX.WorkSheet, { header: 1 });
    const header = rows.find((row) => row.includes('DNI/NIE')) ?? [];
    expect(header[header.indexOf('DNI/NIE') + 1]).toBe('Resultado DNI/NIE');

    expect(server.countRows('credit_ledger')).toBe(1);
    expect(await usedSlans(server, 'identificadores@asesoria.es')).toBe(units);
  }, 90_000);
});
