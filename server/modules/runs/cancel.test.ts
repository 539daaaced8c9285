import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionStateResponse, FlowlogResponse } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { firmLoad } from './reservations.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch } from './test-support.ts';

/**
 * The history's 'Cancelar' on a queued run and 'Detener' on a running one are the same request
 * (POST execution/state/:token/stop): a queued run, for the server's queue or a machine's, ends at
 * once as stopped by the user (202 'Robot detenido'), charged nothing, its reservation released.
 */

const FINGERPRINT = 'ab'.repeat(32);
const stopUrl = (token: string) => `/api/browserflow/execution/state/${token}/stop`;

let server: TestServer;
let ana: CookieJar;
afterEach(async () => server.close());

async function withDb<T>(use: (db: ReturnType<typeof connectDatabase>) => Promise<T>): Promise<T> {
  const db = connectDatabase(server.database);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}
const runRow = (runId: string) => withDb((db) => db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow());
const groupOf = (email: string) => withDb(async (db) => (await db.selectFrom('users').select('group_id').where('email', '=', email).executeTakeFirstOrThrow()).group_id);
const reserved = async (email: string) => (await withDb(async (db) => firmLoad(db, await groupOf(email)))).reserved;

describe('cancelling a run queued for a machine', () => {
  let machineId: string;
  let device: DeviceClient;
  beforeEach(async () => {
    server = await startTestServer(TEST_FLOWS_CONFIG);
    ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
    const link = await linkPc(ana, 'despacho', 'PC del despacho');
    machineId = link.machine._id;
    device = new DeviceClient(server, link.deviceToken);
  });

  it('ends it at once as stopped, charges nothing, releases its reservation, and the machine never gets it', async () => {
    const response = await launch(ana, DESKTOP_FLOW_ID, { certificate: FINGERPRINT }, { machineId });
    expect(response.statusCode, response.body).toBe(202);
    const queued = response.json() as ExecutionStateResponse;
    expect(queued.state).toBe('queued');
    const reservedBefore = Number((await runRow(queued.runId)).reserved_cost);
    expect(reservedBefore).toBeGreaterThan(0);
    expect(await reserved('ana@asesoria.es')).toBe(reservedBefore);

    // The history lists the token its 'Cancelar' sends, while the run has not ended.
    const listed = (await ana.get('/api/flowlog')).json() as FlowlogResponse;
    expect(listed.items[0]).toMatchObject({ _id: queued.runId, state: 'queued', executionToken: queued.executionToken });

    const cancelled = await ana.post(stopUrl(queued.executionToken));
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'finished', output: { status: 202, data: { message: 'Robot detenido' } } });
    expect(await runRow(queued.runId)).toMatchObject({ state: 'finished', result: 'FlowAborted', launch_status: 202, stopped_by_user: 1, cost: 0, usage_units: 0, started_at: null });
    expect(server.countRows('credit_ledger')).toBe(0);
    expect(await reserved('ana@asesoria.es')).toBe(0);
    const after = ((await ana.get('/api/flowlog')).json() as FlowlogResponse).items[0];
    expect(after).toMatchObject({ state: 'finished', result: 'FlowAborted', stoppedByUser: true });
    expect(after?.executionToken).toBeUndefined();
    // The machine asks for work: there is none.
    expect((await device.next(0)).statusCode).toBe(204);
  });

  it('answers 404 to another firm’s user, changing nothing; a finished run stays as it ended', async () => {
    const queued = (await launch(ana, DESKTOP_FLOW_ID, { certificate: FINGERPRINT }, { machineId })).json() as ExecutionStateResponse;
    const luis = await registerUser(server.app, 'luis@otra.es', 'Luis Gil');
    const refused = await luis.post(stopUrl(queued.executionToken));
    expect(refused.statusCode).toBe(404);
    expect(await runRow(queued.runId)).toMatchObject({ state: 'queued', stopped_by_user: 0 });

    await ana.post(stopUrl(queued.executionToken));
    const finishedAt = (await runRow(queued.runId)).finished_at;
    // Cancelling again: the same finished state, nothing rewritten, nothing charged.
    const again = await ana.post(stopUrl(queued.executionToken));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ state: 'finished', output: { status: 202 } });
    expect((await runRow(queued.runId)).finished_at).toBe(finishedAt);
    expect(server.countRows('credit_ledger')).toBe(0);
  });
});

describe('cancelling a run in the server’s queue', () => {
  it('ends the queued run without charge and releases its reservation, while the running one goes on', async () => {
    server = await startTestServer({ ...TEST_FLOWS_CONFIG, runs: { ...TEST_FLOWS_CONFIG.runs, concurrency: 1 } });
    ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
    const first = (await launch(ana, TEST_FLOW_ID, { mode: 'wait' })).json() as ExecutionStateResponse;
    const second = (await launch(ana, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse;
    expect((await runRow(second.runId)).state).toBe('queued');
    const secondReserved = Number((await runRow(second.runId)).reserved_cost);
    expect(secondReserved).toBeGreaterThan(0);
    const before = await reserved('ana@asesoria.es');

    const cancelled = await ana.post(stopUrl(second.executionToken));
    expect(cancelled.json()).toMatchObject({ state: 'finished', output: { status: 202 } });
    expect(await runRow(second.runId)).toMatchObject({ result: 'FlowAborted', launch_status: 202, cost: 0, started_at: null });
    expect(await reserved('ana@asesoria.es')).toBe(before - secondReserved);

    // The running one is stopped ('Detener') the same way: 202 and nothing charged.
    await ana.post(stopUrl(first.executionToken));
    expect((await finishedState(ana, first.executionToken)).output?.status).toBe(202);
    expect(server.countRows('credit_ledger')).toBe(0);
    expect(await reserved('ana@asesoria.es')).toBe(0);
  });
});
