import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowLogDetail, ScheduledFlow } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, upload, workbook } from '../runs/test-support.ts';
import { FileStorage } from '../storage/service.ts';
import { FileSweeper } from './sweeper.ts';

/**
 * Uploads and outputs are kept FILE_RETENTION_DAYS (30 here) and then deleted by the sweeper: an
 * upload with its row, an output's file only (its row stays, expired, so the history still names it).
 * Uploads a queued or running run or a schedule still names are kept.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2025-03-01T09:00:00.000Z');
const EXPIRED_MESSAGE = 'Este archivo ya no está disponible: se borran a los 30 días';

let clock: Date;
let server: TestServer;
let db: Kysely<Database>;
let storage: FileStorage;
let ana: CookieJar;
let anaMember: { userId: string; groupId: string };

const silentLog = { info: () => undefined, error: () => undefined };
const sweeper = (options: { batchSize?: number } = {}) => new FileSweeper({ db, storage, now: () => clock, retentionDays: 30, log: silentLog, ...options });
const daysLater = (days: number) => new Date(START.getTime() + days * DAY_MS);

/** Moves the clock `days` past the start; Ana signs in again (her session ended meanwhile). */
async function moveClock(days: number): Promise<void> {
  clock = daysLater(days);
  ana = new CookieJar(server.app);
  const login = await ana.post('/api/auth/login', { email: 'ana@asesoria.es', password: PASSWORD });
  expect(login.statusCode, login.body).toBe(200);
}

beforeEach(async () => {
  clock = START;
  // The app's own sweep is off (0): the tests sweep when they mean to.
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, now: () => clock, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  db = connectDatabase(server.database);
  storage = new FileStorage(join(server.dir, 'storage'));
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  anaMember = await memberOf(db, 'ana@asesoria.es');
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

/** An upload through the API, stored now (the clock); its id and where it is on disk. */
async function uploaded(name: string): Promise<{ id: string; path: string }> {
  const [file] = await upload(ana, [{ name, data: workbook([['NIF'], ['12345678Z']]) }]);
  const row = await db.selectFrom('stored_files').select(['id', 'storage_key']).where('id', '=', file?.id ?? '').executeTakeFirstOrThrow();
  return { id: row.id, path: storage.pathOf(row.storage_key) };
}

/** A finished run of Ana's with one output file on disk, stored now (the clock). */
async function runWithOutput(name: string): Promise<{ runId: string; path: string }> {
  const runId = await insertRun(db, { ...anaMember, flowId: TEST_FLOW_ID, createdAt: clock.toISOString() });
  const { id, storageKey } = storage.newKey(anaMember.groupId);
  await storage.write(storageKey, Buffer.from(`contenido de ${name}`));
  await db
    .insertInto('stored_files')
    .values({ id, group_id: anaMember.groupId, user_id: anaMember.userId, kind: 'output', run_id: runId, name, size: 20, content_type: 'text/plain', storage_key: storageKey, created_at: clock.toISOString() })
    .execute();
  return { runId, path: storage.pathOf(storageKey) };
}

const fileInput = (uploadId: string) => ({ mode: 'ok', workbook: [{ uploadId, name: 'libro.xlsx' }] });
const download = (runId: string, name: string) => ana.get(`/api/flowlog/${runId}/outputs/${encodeURIComponent(name)}`);

describe('the file sweeper', () => {
  it('deletes what is past 30 days — an upload with its row, an output’s file with its row kept as expired — and keeps what is within them', async () => {
    const oldUpload = await uploaded('viejo.xlsx');
    const oldOutput = await runWithOutput('informe de marzo.xlsx');
    await moveClock(31);
    const newUpload = await uploaded('nuevo.xlsx');
    const newOutput = await runWithOutput('informe de abril.xlsx');

    expect(await sweeper().sweep()).toEqual({ outputs: 1, uploads: 1, orphans: 0 });
    expect(existsSync(oldUpload.path)).toBe(false);
    expect(existsSync(oldOutput.path)).toBe(false);
    expect(existsSync(newUpload.path)).toBe(true);
    expect(existsSync(newOutput.path)).toBe(true);
    expect(await db.selectFrom('stored_files').select('id').where('id', '=', oldUpload.id).executeTakeFirst()).toBeUndefined();
    const expired = await db.selectFrom('stored_files').select(['name', 'expired_at']).where('run_id', '=', oldOutput.runId).executeTakeFirstOrThrow();
    expect(expired).toEqual({ name: 'informe de marzo.xlsx', expired_at: clock.toISOString() });

    // The expired output answers 410 with why; the recent one downloads.
    const gone = await download(oldOutput.runId, 'informe de marzo.xlsx');
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'FILE_EXPIRED', message: EXPIRED_MESSAGE });
    const kept = await download(newOutput.runId, 'informe de abril.xlsx');
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe('contenido de informe de abril.xlsx');

    // The history still names the expired file, marked; the other carries its date.
    const oldRun = (await ana.get(`/api/flowlog/${oldOutput.runId}`)).json() as FlowLogDetail;
    expect(oldRun.outputFileNames).toEqual(['informe de marzo.xlsx']);
    expect(oldRun.outputFiles).toEqual([{ name: 'informe de marzo.xlsx', expiresAt: daysLater(30).toISOString(), expired: true }]);
    const newRun = (await ana.get(`/api/flowlog/${newOutput.runId}`)).json() as FlowLogDetail;
    expect(newRun.outputFiles).toEqual([{ name: 'informe de abril.xlsx', expiresAt: daysLater(61).toISOString(), expired: false }]);

    // A deleted upload is as missing as any: nothing can be launched or scheduled with it.
    const scheduled = await ana.post(`/api/browserflow/schedule/${TEST_FLOW_ID}`, { scheduledDate: daysLater(40).toISOString(), flowInputs: fileInput(oldUpload.id) });
    expect(scheduled.statusCode).toBe(400);
    expect(scheduled.json()).toMatchObject({ issues: [{ path: 'flowInputs.workbook.0.uploadId' }] });

    // Nothing more to do the second time.
    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 0, orphans: 0 });
  });

  it('answers 410 for an output already past its retention that no sweep has deleted yet', async () => {
    const output = await runWithOutput('resultado.xlsx');
    await moveClock(29);
    expect((await download(output.runId, 'resultado.xlsx')).statusCode).toBe(200);
    await moveClock(30);
    const due = await download(output.runId, 'resultado.xlsx');
    expect(due.statusCode).toBe(410);
    expect(due.json()).toMatchObject({ message: EXPIRED_MESSAGE });
    expect(((await ana.get(`/api/flowlog/${output.runId}`)).json() as FlowLogDetail).outputFiles).toMatchObject([{ expired: true }]);
    expect(existsSync(output.path)).toBe(true);
  });

  it('keeps a schedule’s upload while the schedule exists, and a queued or running run’s while it is not finished', async () => {
    const forSchedule = await uploaded('programado.xlsx');
    const forRun = await uploaded('en marcha.xlsx');
    const response = await ana.post(`/api/browserflow/schedule/${TEST_FLOW_ID}`, { scheduledDate: daysLater(90).toISOString(), repeat: true, flowInputs: fileInput(forSchedule.id) });
    expect(response.statusCode, response.body).toBe(201);
    const schedule = response.json() as ScheduledFlow;
    const running = await insertRun(db, { ...anaMember, flowId: TEST_FLOW_ID, createdAt: clock.toISOString(), result: null });
    await db.updateTable('flow_runs').set({ inputs: JSON.stringify(fileInput(forRun.id)) }).where('id', '=', running).execute();
    // Another firm's schedule naming the same id does not keep Ana's upload.
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva');
    const evaMember = await memberOf(db, 'eva@otra.es');
    await db
      .insertInto('flow_schedules')
      .values({
        id: randomUUID(), group_id: evaMember.groupId, user_id: evaMember.userId, flow_id: TEST_FLOW_ID, flow_name: 'Robot de pruebas', scheduled_date: daysLater(90).toISOString(),
        repeat: 0, every: 1, interval: 'days', flow_inputs: JSON.stringify(fileInput(forRun.id)), send_output_to_server: 1, machine_id: null, local_machine_hash: null,
        local_process: null, claimed_by: null, claimed_until: null, created_at: clock.toISOString(), updated_at: clock.toISOString(),
      })
      .execute();
    expect(eva).toBeDefined();

    await moveClock(45);
    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 0, orphans: 0 });
    expect(existsSync(forSchedule.path)).toBe(true);
    expect(existsSync(forRun.path)).toBe(true);

    // The run ends: its upload goes at the next sweep. The schedule is deleted: its upload goes too.
    await db.updateTable('flow_runs').set({ state: 'finished', result: 'Success' }).where('id', '=', running).execute();
    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 1, orphans: 0 });
    expect(existsSync(forRun.path)).toBe(false);
    expect(existsSync(forSchedule.path)).toBe(true);
    expect((await ana.request({ method: 'DELETE', url: `/api/browserflow/schedule/${schedule._id}` })).statusCode).toBe(204);
    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 1, orphans: 0 });
    expect(existsSync(forSchedule.path)).toBe(false);
  });

  it('takes each file once when several processes sweep at the same time', async () => {
    const uploads = [];
    const outputs = [];
    for (let i = 0; i < 7; i += 1) {
      uploads.push(await uploaded(`subida ${i}.xlsx`));
      outputs.push(await runWithOutput(`salida ${i}.xlsx`));
    }
    await moveClock(31);
    const results = await Promise.all([sweeper({ batchSize: 2 }).sweep(), sweeper({ batchSize: 2 }).sweep(), sweeper({ batchSize: 3 }).sweep()]);
    expect(results.reduce((sum, result) => sum + result.outputs, 0)).toBe(7);
    expect(results.reduce((sum, result) => sum + result.uploads, 0)).toBe(7);
    for (const file of [...uploads, ...outputs]) expect(existsSync(file.path), file.path).toBe(false);
    expect(server.countRows('stored_files')).toBe(7);
  });
});

describe('orphans: files in the storage folder that no row names', () => {
  const HOUR_MS = 60 * 60 * 1000;
  /** Dates a file's modification `hours` back from now (the files' clock is the system's). */
  const age = async (path: string, hours: number) => {
    const at = new Date(Date.now() - hours * HOUR_MS);
    await utimes(path, at, at);
  };

  it('removes an orphan past the grace period, keeps a young one (an upload in flight) and every file a row names', async () => {
    const indexedUpload = await uploaded('con fila.xlsx');
    const indexedOutput = await runWithOutput('salida con fila.xlsx');
    const oldOrphan = storage.newKey(anaMember.groupId);
    await storage.write(oldOrphan.storageKey, Buffer.from('sin fila, de anteayer'));
    const nestedOrphan = `${anaMember.groupId}/altas/${randomUUID()}`;
    await storage.write(nestedOrphan, Buffer.from('sin fila, en una subcarpeta'));
    const youngOrphan = storage.newKey(anaMember.groupId);
    await storage.write(youngOrphan.storageKey, Buffer.from('sin fila todavía: se está subiendo'));
    for (const path of [indexedUpload.path, indexedOutput.path, storage.pathOf(oldOrphan.storageKey), storage.pathOf(nestedOrphan)]) await age(path, 48);
    await age(storage.pathOf(youngOrphan.storageKey), 1);

    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 0, orphans: 2 });
    expect(existsSync(storage.pathOf(oldOrphan.storageKey))).toBe(false);
    expect(existsSync(storage.pathOf(nestedOrphan))).toBe(false);
    expect(existsSync(storage.pathOf(youngOrphan.storageKey))).toBe(true);
    expect(existsSync(indexedUpload.path)).toBe(true);
    expect(existsSync(indexedOutput.path)).toBe(true);
    // The indexed upload still downloads its columns: nothing of it was touched.
    expect((await ana.get(`/api/storage/uploads/${indexedUpload.id}/columns`)).statusCode).toBe(200);

    // A day later the young one is an orphan too.
    await age(storage.pathOf(youngOrphan.storageKey), 25);
    expect(await sweeper().sweep()).toEqual({ outputs: 0, uploads: 0, orphans: 1 });
    expect(existsSync(storage.pathOf(youngOrphan.storageKey))).toBe(false);
  });

  it('removes every orphan and nothing else when several processes sweep at the same time', async () => {
    const kept = await uploaded('con fila.xlsx');
    await age(kept.path, 48);
    const orphans: string[] = [];
    for (let i = 0; i < 9; i += 1) {
      const { storageKey } = storage.newKey(anaMember.groupId);
      await storage.write(storageKey, Buffer.from(`huérfano ${i}`));
      await age(storage.pathOf(storageKey), 48);
      orphans.push(storage.pathOf(storageKey));
    }
    const results = await Promise.all([sweeper({ batchSize: 2 }).sweep(), sweeper({ batchSize: 3 }).sweep(), sweeper().sweep()]);
    expect(results.reduce((sum, result) => sum + result.orphans, 0)).toBeGreaterThanOrEqual(9);
    for (const path of orphans) expect(existsSync(path), path).toBe(false);
    expect(existsSync(kept.path)).toBe(true);
  });
});

describe('the server’s own sweep', () => {
  it('runs on its timer with the configured retention, and a download says how many days files are kept', async () => {
    await server.close();
    clock = START;
    server = await startTestServer({ ...TEST_FLOWS_CONFIG, now: () => clock, scheduleRunnerIntervalMs: 0, fileRetention: { days: 1, sweepIntervalMs: 50 } });
    await db.destroy();
    db = connectDatabase(server.database);
    storage = new FileStorage(join(server.dir, 'storage'));
    ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
    anaMember = await memberOf(db, 'ana@asesoria.es');
    const output = await runWithOutput('resultado.xlsx');
    const upload = await uploaded('subida.xlsx');
    await new Promise((resume) => setTimeout(resume, 200));
    expect(existsSync(output.path)).toBe(true);

    await moveClock(1);
    for (let waited = 0; waited < 10_000 && (existsSync(output.path) || existsSync(upload.path)); waited += 50) await new Promise((resume) => setTimeout(resume, 50));
    expect(existsSync(output.path)).toBe(false);
    expect(existsSync(upload.path)).toBe(false);
    const gone = await download(output.runId, 'resultado.xlsx');
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ message: 'Este archivo ya no está disponible: se borran pasado 1 día' });
  });
});
