import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ABORTED_LAUNCH_STATUS, SCHEDULE_MOVED_MESSAGE, type DeviceScheduleCheck, type SlotRun } from '#shared/api/autopilot.ts';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { FlowlogResponse, ScheduledFlow } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc, successWith } from '../devices/test-support.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { registerColleague, withDatabase } from '../machines/test-support.ts';
import { TEST_FLOWS_CONFIG } from '../runs/test-support.ts';

/**
 * The autopilot's schedule calls (shared/api/autopilot.ts) on a real server: a machine sees and runs
 * only its own schedules, one run per slot however often it asks, and moves on guarded by the date
 * it ran. The runner is off (interval 0): nothing here is launched but by these calls.
 */

const DAY_MS = 86_400_000;

let server: TestServer;
let ana: CookieJar;
let pc: { machineId: string; device: DeviceClient };

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  pc = await linked(ana, 'despacho', 'PC del despacho');
});
afterEach(async () => server.close());

async function linked(jar: CookieJar, name: string, machineName: string): Promise<{ machineId: string; device: DeviceClient }> {
  const link = await linkPc(jar, name, machineName);
  return { machineId: link.machine._id, device: new DeviceClient(server, link.deviceToken) };
}

/** A desktop flow scheduled on a machine, due now unless told otherwise. */
async function scheduleOn(machineId: string, body: Record<string, unknown> = {}, jar = ana): Promise<ScheduledFlow> {
  const response = await jar.post(`/api/browserflow/schedule/${DESKTOP_FLOW_ID}`, { scheduledDate: new Date().toISOString(), machine: machineId, flowInputs: {}, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ScheduledFlow;
}

/** A device call with any method (DeviceClient has GET and POST). */
function deviceCall(device: DeviceClient, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return server.app.inject({ method, url, headers: { authorization: `Device ${device.token}` }, ...(payload !== undefined && { payload }) });
}

const listOf = async (device: DeviceClient) => {
  const response = await device.get('/api/device/schedules');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: ScheduledFlow[] }).items;
};
const check = async (device: DeviceClient, id: string) => (await device.get(`/api/device/schedules/${id}`)).json() as DeviceScheduleCheck;
const launchSlot = (device: DeviceClient, schedule: Pick<ScheduledFlow, '_id' | 'scheduledDate'>) =>
  device.post(`/api/device/schedules/${schedule._id}/launch`, { scheduledDate: schedule.scheduledDate });
async function launched(device: DeviceClient, schedule: ScheduledFlow): Promise<SlotRun> {
  const response = await launchSlot(device, schedule);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SlotRun;
}
const slotRun = (device: DeviceClient, scheduleId: string, runId: string) => device.get(`/api/device/schedules/${scheduleId}/runs/${runId}`);
const advance = (device: DeviceClient, id: string, body: Record<string, unknown>) => deviceCall(device, 'PUT', `/api/device/schedules/${id}`, body);
const remove = (device: DeviceClient, id: string, from: string) => deviceCall(device, 'DELETE', `/api/device/schedules/${id}?from=${encodeURIComponent(from)}`);

const runsOf = (scheduleId: string) =>
  withDatabase(server, (db) =>
    db.selectFrom('flow_runs').select(['id', 'idempotency_key', 'state', 'result', 'launch_status', 'remote', 'machine_id', 'cost']).where('schedule_id', '=', scheduleId).orderBy('created_at').execute(),
  );
const storedDate = (id: string) =>
  withDatabase(server, async (db) => (await db.selectFrom('flow_schedules').select(['scheduled_date', 'claimed_by']).where('id', '=', id).executeTakeFirst()) ?? null);

describe('a machine’s schedules', () => {
  it('lists only this machine’s, soonest first, and checks one: gone, another machine’s or another firm’s does not exist', async () => {
    const later = await scheduleOn(pc.machineId, { scheduledDate: new Date(Date.now() + DAY_MS).toISOString(), repeat: true });
    const sooner = await scheduleOn(pc.machineId);
    const home = await linked(ana, 'casa', 'Portátil de casa');
    const elsewhere = await scheduleOn(home.machineId);
    // A server flow's schedule belongs to no machine.
    expect((await ana.post(`/api/browserflow/schedule/${TEST_FLOW_ID}`, { scheduledDate: new Date().toISOString(), flowInputs: { mode: 'ok' } })).statusCode).toBe(201);

    const items = await listOf(pc.device);
    expect(items.map((item) => item._id)).toEqual([sooner._id, later._id]);
    expect(items[1]).toEqual(later);
    expect((await listOf(home.device)).map((item) => item._id)).toEqual([elsewhere._id]);

    expect(await check(pc.device, sooner._id)).toEqual({ exists: true, schedule: sooner });
    expect(await check(pc.device, elsewhere._id)).toEqual({ exists: false, schedule: null });
    expect(await check(pc.device, randomUUID())).toEqual({ exists: false, schedule: null });
    const outsider = await registerUser(server.app, 'eva@otra.es');
    const theirs = await linked(outsider, 'otra', 'PC de otra asesoría');
    expect(await listOf(theirs.device)).toEqual([]);
    expect(await check(theirs.device, sooner._id)).toEqual({ exists: false, schedule: null });

    expect((await ana.request({ method: 'DELETE', url: `/api/browserflow/schedule/${sooner._id}` })).statusCode).toBe(204);
    expect(await check(pc.device, sooner._id)).toEqual({ exists: false, schedule: null });
  });

  it('lists a colleague’s schedule on a machine shared with the firm', async () => {
    await ana.patch(`/api/machines/${pc.machineId}`, { shared: true });
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const his = await scheduleOn(pc.machineId, {}, luis);
    expect(await listOf(pc.device)).toEqual([his]);
    expect(his.user).toEqual({ email: 'luis@asesoria.es', name: 'Luis Martín' });
  });

  it('needs a device token: none, a wrong one or a signed-in cookie get 401', async () => {
    const schedule = await scheduleOn(pc.machineId);
    for (const url of ['/api/device/schedules', `/api/device/schedules/${schedule._id}`]) {
      const bare = await server.app.inject({ method: 'GET', url });
      expect(bare.statusCode).toBe(401);
      expect(bare.json()).toMatchObject({ code: 'DEVICE_TOKEN_INVALID', message: DEVICE_TOKEN_INVALID_MESSAGE });
      expect((await ana.get(url)).statusCode).toBe(401);
      expect((await new DeviceClient(server, 'x'.repeat(43)).get(url)).statusCode).toBe(401);
    }
    expect((await ana.post(`/api/device/schedules/${schedule._id}/launch`, { scheduledDate: schedule.scheduledDate })).statusCode).toBe(401);
    expect((await ana.request({ method: 'DELETE', url: `/api/device/schedules/${schedule._id}?from=${encodeURIComponent(schedule.scheduledDate)}` })).statusCode).toBe(401);
    expect(server.countRows('flow_runs')).toBe(0);
    expect(server.countRows('flow_schedules')).toBe(1);
  });
});

describe('launching a slot', () => {
  it('launches it once on this machine: asked again (even once finished) the same run; the machine’s long poll gets it as a scheduled remote launch', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const first = await launched(pc.device, schedule);
    expect(first).toEqual({ runId: expect.any(String), state: 'queued', launchStatus: null, result: null });
    expect(await launched(pc.device, schedule)).toEqual(first);

    const leased = await pc.device.leaseNext(0);
    expect(leased).toMatchObject({ runId: first.runId, flowId: DESKTOP_FLOW_ID, remote: true, sendOutputToServer: true });
    expect((await slotRun(pc.device, schedule._id, first.runId)).json()).toEqual({ ...first, state: 'running' });
    expect((await pc.device.finish(first.runId, successWith({ 'justificante.pdf': '%PDF' }))).statusCode).toBe(200);

    const finished = { runId: first.runId, state: 'finished', launchStatus: 200, result: 'Success' };
    expect((await slotRun(pc.device, schedule._id, first.runId)).json()).toEqual(finished);
    expect(await launched(pc.device, schedule)).toEqual(finished);
    expect(await runsOf(schedule._id)).toEqual([
      { id: first.runId, idempotency_key: `${schedule._id}:${schedule.scheduledDate}`, state: 'finished', result: 'Success', launch_status: 200, remote: 1, machine_id: pc.machineId, cost: expect.any(Number) },
    ]);
    expect((await pc.device.next(0)).statusCode).toBe(204);

    const history = (await ana.get(`/api/flowlog?browserFlowSchedule=${schedule._id}`)).json() as FlowlogResponse;
    expect(history.total).toBe(1);
    expect(history.items[0]).toMatchObject({
      scheduled: true,
      remote: true,
      result: 'Success',
      machine: { _id: pc.machineId, name: 'PC del despacho' },
      browserFlowSchedule: { _id: schedule._id, machine: { name: 'PC del despacho' } },
    });
  });

  it("hands the machine a local-process schedule's run with its process, and no other run with one", async () => {
    const local = await scheduleOn(pc.machineId, { localProcess: 'sync-siltra-a3' });
    const run = await launched(pc.device, local);
    expect(await pc.device.leaseNext(0)).toMatchObject({ runId: run.runId, localProcess: 'sync-siltra-a3' });
    const plain = await launched(pc.device, await scheduleOn(pc.machineId));
    expect(await pc.device.leaseNext(0)).not.toHaveProperty('localProcess');
    expect(plain.runId).not.toBe(run.runId);
  });

  it('gives two launches of one slot at the same moment one run', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const answers = await Promise.all([launchSlot(pc.device, schedule), launchSlot(pc.device, schedule), launchSlot(pc.device, schedule)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const runIds = new Set(answers.map((answer) => (answer.json() as SlotRun).runId));
    expect(runIds.size).toBe(1);
    expect(await runsOf(schedule._id)).toHaveLength(1);
    expect(server.countRows('flow_runs')).toBe(1);
  });

  it('launches the slot anew, with a key of its own, after its run ended as 299 (the machine stopped), and charges once', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const aborted = await launched(pc.device, schedule);
    await pc.device.leaseNext(0);
    expect((await pc.device.finish(aborted.runId, { kind: 'stopped', by: 'device' })).statusCode).toBe(200);
    expect((await slotRun(pc.device, schedule._id, aborted.runId)).json()).toMatchObject({ state: 'finished', launchStatus: ABORTED_LAUNCH_STATUS, result: 'FlowAborted' });

    const again = await launched(pc.device, schedule);
    expect(again.runId).not.toBe(aborted.runId);
    expect(again.state).toBe('queued');
    expect(await launched(pc.device, schedule)).toEqual(again);
    expect((await pc.device.leaseNext(0)).runId).toBe(again.runId);
    expect((await pc.device.finish(again.runId, successWith({}))).statusCode).toBe(200);

    const slot = `${schedule._id}:${schedule.scheduledDate}`;
    expect((await runsOf(schedule._id)).map((run) => [run.idempotency_key, run.launch_status])).toEqual([
      [slot, 299],
      [`${slot}:1`, 200],
    ]);
    const charges = await withDatabase(server, (db) => db.selectFrom('credit_ledger').select('amount').execute());
    expect(charges).toHaveLength(1);
  });

  it('answers a launch refused for credits with that finished refusal (402, charged nothing), and the same refusal when asked again', async () => {
    const schedule = await scheduleOn(pc.machineId);
    await withDatabase(server, (db) => db.updateTable('subscriptions').set({ used_slans: 500 }).execute());
    const refused = await launched(pc.device, schedule);
    expect(refused).toEqual({ runId: expect.any(String), state: 'finished', launchStatus: 402, result: 'NotEnoughSlans' });
    expect(await launched(pc.device, schedule)).toEqual(refused);
    expect((await slotRun(pc.device, schedule._id, refused.runId)).json()).toEqual(refused);
    expect(await runsOf(schedule._id)).toEqual([
      { id: refused.runId, idempotency_key: `${schedule._id}:${schedule.scheduledDate}`, state: 'finished', result: 'NotEnoughSlans', launch_status: 402, remote: 1, machine_id: pc.machineId, cost: 0 },
    ]);
    expect(server.countRows('credit_ledger')).toBe(0);
    expect((await pc.device.next(0)).statusCode).toBe(204);
  });

  it('refuses a slot the schedule is no longer at (409), a schedule gone or not this machine’s (404), and bad input (400), launching nothing', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const moved = await launchSlot(pc.device, { _id: schedule._id, scheduledDate: new Date(Date.parse(schedule.scheduledDate) - 60_000).toISOString() });
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ code: 'SCHEDULE_MOVED', message: SCHEDULE_MOVED_MESSAGE });
    // The same instant written with an offset is the same slot.
    const offset = new Date(Date.parse(schedule.scheduledDate) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect(offset).not.toBe(schedule.scheduledDate);

    const home = await linked(ana, 'casa', 'Portátil de casa');
    const notHers = await launchSlot(home.device, schedule);
    expect(notHers.statusCode).toBe(404);
    expect(notHers.json()).toMatchObject({ code: 'SCHEDULE_NOT_FOUND', message: 'No se ha encontrado esta programación' });
    expect((await launchSlot(pc.device, { _id: randomUUID(), scheduledDate: schedule.scheduledDate })).statusCode).toBe(404);

    for (const body of [{}, { scheduledDate: 'mañana' }, { scheduledDate: schedule.scheduledDate, extra: 1 }]) {
      const bad = await pc.device.post(`/api/device/schedules/${schedule._id}/launch`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
    }
    expect((await launchSlot(pc.device, { _id: 'xyz', scheduledDate: schedule.scheduledDate })).statusCode).toBe(400);
    expect(server.countRows('flow_runs')).toBe(0);

    expect((await pc.device.post(`/api/device/schedules/${schedule._id}/launch`, { scheduledDate: offset })).statusCode).toBe(200);
    expect(server.countRows('flow_runs')).toBe(1);
  });

  it('shows a slot’s run only to its machine, for its schedule', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const run = await launched(pc.device, schedule);
    const home = await linked(ana, 'casa', 'Portátil de casa');
    expect((await slotRun(home.device, schedule._id, run.runId)).statusCode).toBe(404);
    const other = await scheduleOn(pc.machineId, { scheduledDate: new Date(Date.now() + DAY_MS).toISOString() });
    const wrongSchedule = await slotRun(pc.device, other._id, run.runId);
    expect(wrongSchedule.statusCode).toBe(404);
    expect(wrongSchedule.json()).toMatchObject({ code: 'RUN_NOT_FOUND', message: 'No se ha encontrado esta ejecución' });
    expect((await slotRun(pc.device, schedule._id, 'xyz')).statusCode).toBe(400);
  });
});

describe('moving on after a slot ran', () => {
  it('moves a repeating schedule from the date it ran to the next, and leaves a date the user moved it to (409)', async () => {
    const schedule = await scheduleOn(pc.machineId, { repeat: true });
    const next = new Date(Date.parse(schedule.scheduledDate) + DAY_MS).toISOString();
    const moved = await advance(pc.device, schedule._id, { from: schedule.scheduledDate, to: next });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ _id: schedule._id, scheduledDate: next, repeat: true, machine: { _id: pc.machineId } });
    expect(await storedDate(schedule._id)).toEqual({ scheduled_date: next, claimed_by: null });

    // The same advance again (a retry after a lost answer) finds it no longer at `from`.
    const again = await advance(pc.device, schedule._id, { from: schedule.scheduledDate, to: new Date(Date.parse(next) + DAY_MS).toISOString() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SCHEDULE_MOVED', message: SCHEDULE_MOVED_MESSAGE });

    // The user moves it while the slot at `next` runs: their date stands.
    const userDate = new Date(Date.parse(next) + 3 * DAY_MS).toISOString();
    expect((await ana.request({ method: 'PUT', url: `/api/browserflow/schedule/${schedule._id}?scheduledDate=${encodeURIComponent(userDate)}` })).statusCode).toBe(200);
    expect((await advance(pc.device, schedule._id, { from: next, to: new Date(Date.parse(next) + DAY_MS).toISOString() })).statusCode).toBe(409);
    expect((await storedDate(schedule._id))?.scheduled_date).toBe(userDate);
  });

  it('refuses a date in the past or bad input (400), another machine’s or a gone schedule (404), changing nothing', async () => {
    const schedule = await scheduleOn(pc.machineId, { repeat: true });
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString();
    const past = await advance(pc.device, schedule._id, { from: schedule.scheduledDate, to: new Date(Date.now() - DAY_MS).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ issues: [{ path: 'to', message: 'Elige una fecha y hora futuras' }] });
    for (const body of [{ from: schedule.scheduledDate }, { from: 'ayer', to: tomorrow }, { from: schedule.scheduledDate, to: tomorrow, repeat: false }]) {
      expect((await advance(pc.device, schedule._id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const home = await linked(ana, 'casa', 'Portátil de casa');
    expect((await advance(home.device, schedule._id, { from: schedule.scheduledDate, to: tomorrow })).statusCode).toBe(404);
    expect((await remove(home.device, schedule._id, schedule.scheduledDate)).statusCode).toBe(404);
    expect((await deviceCall(pc.device, 'DELETE', `/api/device/schedules/${schedule._id}`)).statusCode).toBe(400);
    expect((await deviceCall(pc.device, 'DELETE', `/api/device/schedules/${schedule._id}?from=ayer`)).statusCode).toBe(400);
    expect(await storedDate(schedule._id)).toEqual({ scheduled_date: schedule.scheduledDate, claimed_by: null });

    const gone = randomUUID();
    expect((await advance(pc.device, gone, { from: schedule.scheduledDate, to: tomorrow })).statusCode).toBe(404);
    expect((await remove(pc.device, gone, schedule.scheduledDate)).statusCode).toBe(404);
  });

  it('deletes a one-off schedule only while it is still at the date it ran', async () => {
    const schedule = await scheduleOn(pc.machineId);
    const userDate = new Date(Date.now() + DAY_MS).toISOString();
    expect((await ana.request({ method: 'PUT', url: `/api/browserflow/schedule/${schedule._id}?scheduledDate=${encodeURIComponent(userDate)}` })).statusCode).toBe(200);
    const stale = await remove(pc.device, schedule._id, schedule.scheduledDate);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'SCHEDULE_MOVED' });
    expect((await storedDate(schedule._id))?.scheduled_date).toBe(userDate);

    expect((await remove(pc.device, schedule._id, userDate)).statusCode).toBe(204);
    expect(await storedDate(schedule._id)).toBeNull();
    expect((await remove(pc.device, schedule._id, userDate)).statusCode).toBe(404);
    expect(await check(pc.device, schedule._id)).toEqual({ exists: false, schedule: null });
  });
});
