import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_ONLINE_WINDOW_MS } from '#shared/api/devices.ts';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { UPDATE_NOTIFICATIONS_FLOW_ID, notificationsPaths, type WatchedCertificatesResponse } from '#shared/api/notifications.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { withDatabase } from '../machines/test-support.ts';
import { launch } from '../runs/test-support.ts';
import { Clock, envio, firmWithPc, page, upsert, type TestFirm } from './test-support.ts';

/**
 * Issue 43 (10): 'Actualizar' for a PC that is offline queues the update flow's run for it. The screen
 * reads that pending update from the watched certificates (so it survives a reload), and a second
 * 'Actualizar' while it waits or runs answers the same run instead of queueing another.
 */

let server: TestServer;
let clock: Clock;
let firm: TestFirm;

beforeEach(async () => {
  clock = new Clock();
  server = await startTestServer({ now: clock.now });
  firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
  const watched = await firm.jar.put(notificationsPaths.certificates, { certificates: firm.fingerprints.map((fingerprint) => ({ machineId: firm.machineId, fingerprint })) });
  expect(watched.statusCode, watched.body).toBe(200);
  // The PC has not called for a while: it is offline.
  clock.advance(DEVICE_ONLINE_WINDOW_MS * 4);
});
afterEach(async () => server.close());

async function updateOn(machineId: string, jar = firm.jar): Promise<ExecutionStateResponse> {
  const response = await launch(jar, UPDATE_NOTIFICATIONS_FLOW_ID, {}, { machineId, json: true });
  expect(response.statusCode, response.body).toBe(202);
  return response.json() as ExecutionStateResponse;
}

const watched = async (jar = firm.jar) => ((await jar.get(notificationsPaths.certificates)).json() as WatchedCertificatesResponse).items;
const updateRuns = () => withDatabase(server, (db) => db.selectFrom('flow_runs').select(['id', 'state']).where('flow_id', '=', UPDATE_NOTIFICATIONS_FLOW_ID).execute());

describe('an update queued for an offline PC', () => {
  it('is shown on each of its watched certificates, from the server, until the PC has run it', async () => {
    expect((await watched()).map((item) => item.pendingUpdate)).toEqual([null, null]);
    const queued = await updateOn(firm.machineId);
    expect(queued).toMatchObject({ state: 'queued', machine: { _id: firm.machineId, online: false } });

    // A reload reads it again: both certificates of that PC wait for the same run.
    const pending = { runId: queued.runId, state: 'queued', queuedAt: clock.now().toISOString() };
    expect((await watched()).map((item) => item.pendingUpdate)).toEqual([pending, pending]);

    // The PC comes back and takes it: running.
    const run = await firm.device.leaseNext(0);
    expect(run.runId).toBe(queued.runId);
    expect((await watched()).map((item) => item.pendingUpdate?.state)).toEqual(['running', 'running']);

    // It reports its certificates and finishes: nothing pending any more.
    await upsert(firm.device, firm.fingerprints[0], [envio()]);
    const finished = await firm.device.finish(run.runId, { kind: 'result', result: 'Success', usageUnits: 2, outputFolder: 'C:\\AutoAsesor\\dehu', outputFileNames: [], outputs: [] });
    expect(finished.statusCode, finished.body).toBe(200);
    expect((await watched()).map((item) => item.pendingUpdate)).toEqual([null, null]);
    expect((await page(firm.jar)).total).toBe(1);
  });

  it('is not queued twice: a second launch while it waits or runs answers the same run; once it ends, a new one is queued', async () => {
    const first = await updateOn(firm.machineId);
    const second = await updateOn(firm.machineId);
    expect(second.runId).toBe(first.runId);
    expect(await updateRuns()).toEqual([{ id: first.runId, state: 'queued' }]);

    await firm.device.leaseNext(0);
    expect((await updateOn(firm.machineId)).runId).toBe(first.runId);
    expect(await updateRuns()).toHaveLength(1);

    await firm.device.finish(first.runId, { kind: 'result', result: 'Success', usageUnits: 0, outputFolder: 'C:\\AutoAsesor\\dehu', outputFileNames: [], outputs: [] });
    const next = await updateOn(firm.machineId);
    expect(next.runId).not.toBe(first.runId);
    expect((await updateRuns()).map((row) => row.state).sort()).toEqual(['finished', 'queued']);
  });

  it("concerns one firm's machine only: another firm's PC queues its own and never sees this one", async () => {
    const mine = await updateOn(firm.machineId);
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    await other.jar.put(notificationsPaths.certificates, { certificates: [{ machineId: other.machineId, fingerprint: other.fingerprints[0] }] });
    expect((await watched(other.jar)).map((item) => item.pendingUpdate)).toEqual([null]);
    const theirs = await updateOn(other.machineId, other.jar);
    expect(theirs.runId).not.toBe(mine.runId);
    expect((await watched(other.jar)).map((item) => item.pendingUpdate?.runId)).toEqual([theirs.runId]);
    expect((await watched()).map((item) => item.pendingUpdate?.runId)).toEqual([mine.runId, mine.runId]);
  });
});

describe('a page past the end', () => {
  it('serves the last page and says which (never an empty page with results before it)', async () => {
    await upsert(firm.device, firm.fingerprints[0], Array.from({ length: 5 }, (_, index) => envio({ identificador: `P-${index}` })));
    const last = await page(firm.jar, '?pageSize=2&page=9&sortby=titular');
    expect(last).toMatchObject({ total: 5, page: 3 });
    expect(last.items).toHaveLength(1);
    expect(await page(firm.jar, '?pageSize=2&page=2')).toMatchObject({ total: 5, page: 2 });
    // No results at all: page 1, empty.
    expect(await page(firm.jar, '?page=4&search=nadie')).toEqual({ total: 0, page: 1, items: [] });
  });
});
