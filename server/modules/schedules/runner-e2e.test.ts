import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowLog, FlowlogResponse, ScheduledFlow } from '#shared/api/flows.ts';
import { buildApp } from '../../app.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG } from '../runs/test-support.ts';

/**
 * The server's own runner with the real launcher: schedules of server flows created through the API
 * run at their time as scheduled runs of the history, charged once, and survive a server stopped
 * mid-run. Desktop flows on a machine are left to its autopilot (device-schedules.test.ts).
 */

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, scheduleRunnerIntervalMs: 50 });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es');
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`no ha llegado a tiempo: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resume) => setTimeout(resume, 50));
  }
}

async function scheduleNow(body: Record<string, unknown>): Promise<ScheduledFlow> {
  const response = await ana.post(`/api/browserflow/schedule/${TEST_FLOW_ID}`, { scheduledDate: new Date().toISOString(), ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const history = async (query = ''): Promise<FlowlogResponse> => (await ana.get(`/api/flowlog${query}`)).json();
const finishedRuns = (response: FlowlogResponse) => response.items.filter((run) => run.state === 'finished');

describe('scheduled server flows', () => {
  it('runs a due one-off schedule once as a scheduled run, charges it and deletes the schedule', async () => {
    const schedule = await scheduleNow({ flowInputs: { mode: 'ok' } });
    const runs = await eventually(() => history('?scheduled=true'), (page) => finishedRuns(page).length === 1);
    const run = runs.items[0] as FlowLog;
    expect(run).toMatchObject({
      browserFlow: { _id: TEST_FLOW_ID, name: 'Robot de pruebas' },
      result: 'Success',
      scheduled: true,
      browserFlowSchedule: { _id: schedule._id, machine: null },
      usageHistory: [{ usageUnits: 1, usageRatio: 2 }],
      outputFileNames: ['resultado.txt'],
    });
    // The counters were raised in the launch's own transaction.
    expect(runs.total).toBe(1);
    expect((await history()).total).toBe(1);
    expect((await history('?scheduled=false')).total).toBe(0);
    expect((await history(`?browserFlowSchedule=${schedule._id}`)).total).toBe(1);
    // The runner deletes the one-off once it has seen the run end, a moment after the history shows it.
    await eventually(async () => (await ana.get(`/api/browserflow/schedule/${schedule._id}`)).statusCode, (status) => status === 404);
    expect((await ana.get('/api/flowlog/stats')).json()).toMatchObject({ total: 1, byResult: { Success: 1 }, cost: 2 });
    // Several more ticks later, still one run.
    await new Promise((resume) => setTimeout(resume, 300));
    expect((await history()).total).toBe(1);
  });

  it('keeps a slot refused for inputs no longer valid in the history as WrongInput, charged nothing, and lets the one-off go', async () => {
    // Saved valid for later (a schedule's inputs are checked when saved); then no longer valid, and due.
    const schedule = await scheduleNow({ scheduledDate: new Date(Date.now() + 3_600_000).toISOString(), flowInputs: { mode: 'ok' } });
    await db.updateTable('flow_schedules').set({ flow_inputs: JSON.stringify({ mode: 'ok', nif: '12345678A' }), scheduled_date: new Date().toISOString() }).where('id', '=', schedule._id).execute();
    const runs = await eventually(() => history('?scheduled=true'), (page) => finishedRuns(page).length === 1);
    expect(runs.items[0]).toMatchObject({ result: 'WrongInput', scheduled: true, browserFlowSchedule: { _id: schedule._id }, usageHistory: [] });
    const row = await db.selectFrom('flow_runs').select(['launch_status', 'message', 'cost', 'idempotency_key']).where('schedule_id', '=', schedule._id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ launch_status: 400, cost: 0, idempotency_key: null });
    expect(row.message).toMatch(/^Revisa los datos enviados: .+/);
    expect(server.countRows('credit_ledger')).toBe(0);
    await eventually(async () => (await ana.get(`/api/browserflow/schedule/${schedule._id}`)).statusCode, (status) => status === 404);
  });

  it('moves a repeating schedule to its next day after the run', async () => {
    const schedule = await scheduleNow({ flowInputs: { mode: 'ok' }, repeat: true });
    await eventually(() => history('?scheduled=true'), (page) => finishedRuns(page).length === 1);
    const moved = await eventually(
      async () => (await ana.get(`/api/browserflow/schedule/${schedule._id}`)).json() as ScheduledFlow,
      (current) => current.scheduledDate !== schedule.scheduledDate,
    );
    const hours = (Date.parse(moved.scheduledDate) - Date.parse(schedule.scheduledDate)) / 3_600_000;
    // A day on the Madrid wall clock: 24 h, or 23/25 h across a DST change.
    expect([23, 24, 25]).toContain(hours);
  });

  it('leaves the schedule as it was when the server stops mid-run (299), and the next server runs the slot again, charged once', async () => {
    const schedule = await scheduleNow({ flowInputs: { mode: 'wait' } });
    await eventually(() => history(), (page) => page.items[0]?.state === 'running');
    // preClose: the run ends as FlowAborted 299 first, then the runner releases the schedule (no deadlock).
    await server.app.close();
    const left = await db.selectFrom('flow_schedules').selectAll().where('id', '=', schedule._id).executeTakeFirstOrThrow();
    expect(left).toMatchObject({ scheduled_date: schedule.scheduledDate, claimed_by: null });
    const aborted = await db.selectFrom('flow_runs').select(['result', 'launch_status', 'idempotency_key']).where('schedule_id', '=', schedule._id).execute();
    expect(aborted).toEqual([{ result: 'FlowAborted', launch_status: 299, idempotency_key: `${schedule._id}:${schedule.scheduledDate}` }]);

    // Told to finish this time; a new server on the same database takes the slot up with a key of its own.
    await db.updateTable('flow_schedules').set({ flow_inputs: JSON.stringify({ mode: 'ok' }) }).where('id', '=', schedule._id).execute();
    const next = await buildApp({
      ...TEST_FLOWS_CONFIG,
      database: server.database,
      webRoot: join(server.dir, 'no-web-build'),
      storageDir: join(server.dir, 'storage'),
      publicUrl: 'http://app.test',
      cookieSecure: false,
      allowedOrigins: [],
      scheduleRunnerIntervalMs: 50,
    });
    try {
      const runs = await eventually(
        () => db.selectFrom('flow_runs').select(['result', 'launch_status', 'idempotency_key', 'cost']).where('schedule_id', '=', schedule._id).orderBy('created_at').execute(),
        (rows) => rows.some((row) => row.result === 'Success'),
      );
      expect(runs).toEqual([
        { result: 'FlowAborted', launch_status: 299, idempotency_key: `${schedule._id}:${schedule.scheduledDate}`, cost: 0 },
        { result: 'Success', launch_status: 200, idempotency_key: `${schedule._id}:${schedule.scheduledDate}:1`, cost: 2 },
      ]);
      await eventually(() => db.selectFrom('flow_schedules').select('id').where('id', '=', schedule._id).execute(), (rows) => rows.length === 0);
      const charged = await db.selectFrom('credit_ledger').select('amount').execute();
      expect(charged.map((row) => Number(row.amount))).toEqual([2]);
    } finally {
      await next.close();
    }
  });
});

describe('scheduled desktop flows on a machine', () => {
  it('leaves a due one to its machine’s autopilot: the runner launches nothing and claims nothing', async () => {
    const pc = await linkPc(ana, 'despacho', 'PC del despacho');
    const device = new DeviceClient(server, pc.deviceToken);
    const response = await ana.post(`/api/browserflow/schedule/${DESKTOP_FLOW_ID}`, { scheduledDate: new Date().toISOString(), machine: pc.machine._id, flowInputs: {} });
    expect(response.statusCode, response.body).toBe(201);
    const schedule = response.json() as ScheduledFlow;

    // Many ticks of the runner (every 50 ms) while the machine waits a second for a run.
    expect((await device.next(1)).statusCode).toBe(204);
    expect(server.countRows('flow_runs')).toBe(0);
    const left = await db.selectFrom('flow_schedules').select(['scheduled_date', 'claimed_by', 'claimed_until']).where('id', '=', schedule._id).executeTakeFirstOrThrow();
    expect(left).toEqual({ scheduled_date: schedule.scheduledDate, claimed_by: null, claimed_until: null });
    expect((await history()).total).toBe(0);
  });
});
