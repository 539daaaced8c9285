import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEASE_LOST_MESSAGE, MACHINE_REQUIRED_MESSAGE, type LeasedRun } from '#shared/api/devices.ts';
import type { ExecutionStateResponse, FlowLogDetail } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { machinesOf, registerColleague, withDatabase } from '../machines/test-support.ts';
import { TEST_FLOWS_CONFIG, launch } from '../runs/test-support.ts';
import { DeviceClient, linkPc, successWith } from './test-support.ts';

const FINGERPRINT = 'ab'.repeat(32);
const stateUrl = (token: string) => `/api/browserflow/execution/state/${token}`;

let server: TestServer;
let ana: CookieJar;
let machineId: string;
let device: DeviceClient;

async function start(leaseMs = 60_000): Promise<void> {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, runs: { ...TEST_FLOWS_CONFIG.runs, leaseMs } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  const link = await linkPc(ana, 'despacho', 'PC del despacho');
  machineId = link.machine._id;
  device = new DeviceClient(server, link.deviceToken);
}

afterEach(async () => server.close());

/** A remote launch of the desktop test robot on Ana's PC, answered 202. */
async function launchOnPc(extra: Record<string, unknown> = {}, jar = ana): Promise<ExecutionStateResponse> {
  const response = await launch(jar, DESKTOP_FLOW_ID, { certificate: FINGERPRINT.toUpperCase() }, { machineId, ...extra });
  expect(response.statusCode, response.body).toBe(202);
  return response.json() as ExecutionStateResponse;
}

const runRow = (runId: string) => withDatabase(server, (db) => db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow());
const ledgerRows = () => server.countRows('credit_ledger');

describe('launching a desktop flow on a machine', () => {
  beforeEach(() => start());

  it('queues a remote launch for the machine (not for the server), shows the machine, and leases it to that machine', async () => {
    const queued = await launchOnPc();
    expect(queued).toMatchObject({ state: 'queued', machine: { _id: machineId, name: 'PC del despacho', online: false } });
    // The server's own workers never take it.
    await new Promise((done) => setTimeout(done, 300));
    expect(await runRow(queued.runId)).toMatchObject({ state: 'queued', machine_id: machineId, machine_name: 'PC del despacho', remote: 1, send_output_to_server: 1, scheduled: 1 });

    const run = await device.leaseNext(0);
    expect(run).toEqual({
      runId: queued.runId,
      executionToken: queued.executionToken,
      flowId: DESKTOP_FLOW_ID,
      flowName: 'Robot de escritorio',
      inputs: { certificate: FINGERPRINT },
      timeLimitSeconds: 60,
      remote: true,
      sendOutputToServer: true,
      leaseMs: 60_000,
      startedAt: expect.any(String),
      fileInputs: [],
    } satisfies LeasedRun);
    const row = await runRow(queued.runId);
    expect(row).toMatchObject({ state: 'running', lease_owner: `machine:${machineId}` });
    expect(Date.parse(row.lease_until ?? '') - Date.parse(run.startedAt)).toBe(60_000);
    const state = (await ana.get(stateUrl(queued.executionToken))).json() as ExecutionStateResponse;
    expect(state).toMatchObject({ state: 'running', machine: { _id: machineId, online: true } });
    expect((await device.next(0)).statusCode).toBe(204);
  });

  it('asks for a machine the user sees, refuses one for a server flow, and checks inputs and credits as for server flows, writing nothing', async () => {
    const missing = await launch(ana, DESKTOP_FLOW_ID, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'MACHINE_REQUIRED', message: MACHINE_REQUIRED_MESSAGE, issues: [{ path: 'machineId' }] });
    const serverFlow = await launch(ana, TEST_FLOW_ID, { mode: 'ok' }, { machineId });
    expect(serverFlow.statusCode).toBe(400);
    expect(serverFlow.json()).toMatchObject({ issues: [{ path: 'machineId' }] });
    const badCertificate = await launch(ana, DESKTOP_FLOW_ID, { certificate: 'mi certificado' }, { machineId });
    expect(badCertificate.statusCode).toBe(400);
    expect(badCertificate.json()).toMatchObject({ issues: [{ path: 'inputs.certificate', message: 'El certificado elegido no es válido' }] });

    // Another firm's machine, and a colleague's private one, do not exist for the caller.
    const outsider = await registerUser(server.app, 'eva@otra.es');
    const foreign = await launch(outsider, DESKTOP_FLOW_ID, {}, { machineId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: 'No se ha encontrado este dispositivo' });
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    expect((await launch(luis, DESKTOP_FLOW_ID, {}, { machineId })).statusCode).toBe(404);
    expect(server.countRows('flow_runs')).toBe(0);

    // Shared with the firm, the colleague may launch on it: the run is his, on Ana's PC.
    await ana.patch(`/api/machines/${machineId}`, { shared: true });
    const shared = await launchOnPc({}, luis);
    expect((await device.leaseNext(0)).runId).toBe(shared.runId);

    // Credits: a launch beyond the balance is refused (402) and recorded as NotEnoughSlans, on its machine.
    await withDatabase(server, (db) => db.updateTable('subscriptions').set({ used_slans: 500 }).execute());
    const refused = await launch(ana, DESKTOP_FLOW_ID, {}, { machineId });
    expect(refused.statusCode).toBe(402);
    const rows = await withDatabase(server, (db) => db.selectFrom('flow_runs').select(['result', 'machine_id', 'state']).where('result', '=', 'NotEnoughSlans').execute());
    expect(rows).toEqual([{ result: 'NotEnoughSlans', machine_id: machineId, state: 'finished' }]);
    expect((await device.next(0)).statusCode).toBe(204);
  });

  it('wakes a waiting machine at once when a run is queued for it, and answers 204 after `wait` with none', async () => {
    const idleStart = Date.now();
    expect((await device.next(1)).statusCode).toBe(204);
    expect(Date.now() - idleStart).toBeGreaterThanOrEqual(950);

    const waiting = device.next(10);
    await new Promise((done) => setTimeout(done, 700));
    const launchedAt = Date.now();
    const queued = await launchOnPc();
    const response = await waiting;
    expect(response.statusCode).toBe(200);
    expect((response.json() as { run: LeasedRun }).run.runId).toBe(queued.runId);
    expect(Date.now() - launchedAt).toBeLessThan(400);
  });

  it('leases a run once when two claims race: one 200, the other 409; another machine’s token gets 404', async () => {
    const queued = await launchOnPc({ localLaunch: true });
    expect(await runRow(queued.runId)).toMatchObject({ remote: 0, send_output_to_server: 0, scheduled: 0 });
    const [first, second] = await Promise.all([device.claim(queued.executionToken), device.claim(queued.executionToken)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expect(refused.json()).toMatchObject({ message: 'Esta ejecución ya se ha iniciado' });
    expect((await device.next(0)).statusCode).toBe(204);

    const other = new DeviceClient(server, (await linkPc(ana, 'portátil')).deviceToken);
    expect((await other.claim(queued.executionToken)).statusCode).toBe(404);
    expect((await other.report(queued.runId, {})).statusCode).toBe(404);
    expect((await other.finish(queued.runId, { kind: 'timeout' })).statusCode).toBe(404);
  });
});

describe('running a leased run', () => {
  beforeEach(() => start());

  it('adds reported lines and progress to the run, renews the lease, and relays the user’s stop (202, not charged)', async () => {
    const queued = await launchOnPc();
    const run = await device.leaseNext(0);
    const leaseBefore = (await runRow(run.runId)).lease_until ?? '';
    await new Promise((done) => setTimeout(done, 20));
    const report = await device.report(run.runId, { lines: [{ level: 'info', text: 'Entro en la sede' }, { level: 'warn', text: 'Sin justificantes en marzo' }], successfulIterations: 1, totalIterations: 3 });
    expect(report.statusCode, report.body).toBe(200);
    const answer = report.json() as { stop: boolean; leaseUntil: string };
    expect(answer.stop).toBe(false);
    expect(answer.leaseUntil > leaseBefore).toBe(true);
    expect((await runRow(run.runId)).lease_until).toBe(answer.leaseUntil);

    const state = (await ana.get(`${stateUrl(queued.executionToken)}?since=0`)).json() as ExecutionStateResponse;
    expect(state).toMatchObject({ state: 'running', successfulIterations: 1, totalIterations: 3, consoleLog: ['Entro en la sede', 'Sin justificantes en marzo'] });

    // The user's stop waits for the machine: the next report says so, and the machine finishes as stopped.
    const stopping = ana.post(`${stateUrl(queued.executionToken)}/stop`);
    await new Promise((done) => setTimeout(done, 100));
    expect((await device.report(run.runId, {})).json()).toMatchObject({ stop: true });
    expect((await device.finish(run.runId, { kind: 'stopped', by: 'user' })).json()).toEqual({ closed: true });
    const stopped = (await stopping).json() as ExecutionStateResponse;
    expect(stopped.output).toMatchObject({ status: 202, data: { message: 'Robot detenido', cost: 0 } });
    expect(await runRow(run.runId)).toMatchObject({ result: 'FlowAborted', launch_status: 202, stopped_by_user: 1 });
    expect(ledgerRows()).toBe(0);
    expect((await device.report(run.runId, {})).statusCode).toBe(409);
  });

  it('closes a queued machine run at once when the user stops it', async () => {
    const queued = await launchOnPc();
    const stopped = (await ana.post(`${stateUrl(queued.executionToken)}/stop`)).json() as ExecutionStateResponse;
    expect(stopped.output).toMatchObject({ status: 202, data: { message: 'Robot detenido' } });
    expect((await device.next(0)).statusCode).toBe(204);
    expect((await device.claim(queued.executionToken)).statusCode).toBe(409);
  });

  it('charges a finished run once, even when the machine sends its finish twice, and offers the files it sent', async () => {
    const queued = await launchOnPc();
    const run = await device.leaseNext(0);
    const outcome = successWith({ 'justificante 1.pdf': '%PDF-1.4 uno', 'resumen.csv': 'NIF;Estado\n12345678Z;ok\n' }, 3);
    const [first, second] = await Promise.all([device.finish(run.runId, outcome), device.finish(run.runId, outcome)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect((first.statusCode === 409 ? first : second).json()).toEqual({ closed: false });
    expect(ledgerRows()).toBe(1);
    expect(server.countRows('stored_files')).toBe(2);

    const done = (await ana.get(stateUrl(queued.executionToken))).json() as ExecutionStateResponse;
    expect(done.output).toMatchObject({
      status: 200,
      data: {
        usageUnits: 3, usageRatio: 2, cost: 6,
        files: [{ name: 'justificante 1.pdf', size: 12 }, { name: 'resumen.csv', size: 24 }],
        outputFolder: expect.stringContaining('robot-de-escritorio'),
        outputFileNames: ['justificante 1.pdf', 'resumen.csv'],
      },
    });
    const download = await ana.get(`/api/flowlog/${run.runId}/outputs/${encodeURIComponent('justificante 1.pdf')}`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('%PDF-1.4 uno');

    const history = (await ana.get(`/api/flowlog/${run.runId}`)).json() as FlowLogDetail;
    expect(history).toMatchObject({ remote: true, scheduled: true, machine: { _id: machineId, name: 'PC del despacho' }, outputFileNames: ['justificante 1.pdf', 'resumen.csv'] });
    expect((await ana.get('/api/flowlog?scheduled=true')).json()).toMatchObject({ total: 1 });
    expect((await ana.get('/api/flowlog?scheduled=false')).json()).toMatchObject({ total: 0 });
  });

  it('keeps a local launch’s files on the PC: their names in the history, nothing in storage', async () => {
    const queued = await launchOnPc({ localLaunch: true });
    const claimed = await device.claim(queued.executionToken);
    expect(claimed.json()).toMatchObject({ run: { remote: false, sendOutputToServer: false } });
    const finished = await device.finish(queued.runId, successWith({ 'justificante.pdf': '%PDF' }, 1));
    expect(finished.json()).toEqual({ closed: true });
    expect(server.countRows('stored_files')).toBe(0);
    const history = (await ana.get(`/api/flowlog/${queued.runId}`)).json() as FlowLogDetail;
    expect(history).toMatchObject({ remote: false, scheduled: false, outputFileNames: ['justificante.pdf'], outputFolder: expect.stringContaining('abcd1234') });
    expect((await ana.get(`/api/flowlog/${queued.runId}/outputs/justificante.pdf`)).statusCode).toBe(404);
    expect((await ana.get('/api/flowlog?scheduled=false')).json()).toMatchObject({ total: 1 });
    expect(ledgerRows()).toBe(1);
  });

  it('answers a machine that stopped on its own with 299, and ends failures as the server’s workers do, uncharged', async () => {
    const cases = [
      [{ kind: 'stopped', by: 'device' }, 299, 'El dispositivo se ha detenido durante la ejecución. No se ha cobrado.'],
      [{ kind: 'timeout' }, 504, 'Tiempo límite superado: el robot llevaba 60 s y se ha detenido'],
      [{ kind: 'crashed', message: 'Chromium se ha cerrado' }, 500, 'El robot se ha detenido por un error: Chromium se ha cerrado'],
      [{ ...successWith({}), result: 'Fail', message: 'La sede no responde' }, 500, 'La sede no responde'],
    ] as const;
    for (const [outcome, status, lastLine] of cases) {
      const queued = await launchOnPc();
      const run = await device.leaseNext(0);
      expect((await device.finish(run.runId, outcome)).statusCode).toBe(200);
      const done = (await ana.get(stateUrl(queued.executionToken))).json() as ExecutionStateResponse;
      expect(done.output?.status, lastLine).toBe(status);
      expect(done.consoleLog.at(-1)).toBe(lastLine);
    }
    expect(ledgerRows()).toBe(0);
  });

  it('answers bad reports and finishes with 400, changing nothing', async () => {
    const queued = await launchOnPc();
    const run = await device.leaseNext(0);
    for (const body of [{ lines: [{ level: 'debug', text: 'x' }], successfulIterations: 0, totalIterations: 0 }, { lines: [], successfulIterations: -1, totalIterations: 0 }, {}]) {
      expect((await device.post(`/api/device/runs/${run.runId}/report`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const badFile = await device.finish(run.runId, { ...successWith({ 'a.pdf': 'x' }), outputs: [{ name: 'a.pdf', base64: 'no es base64!' }] });
    expect(badFile.statusCode).toBe(400);
    expect(badFile.json()).toMatchObject({ issues: [{ path: 'outputs.0.base64' }] });
    expect((await device.finish(run.runId, { kind: 'exploded' })).statusCode).toBe(400);
    expect((await device.finish('no-es-un-id', { kind: 'timeout' })).statusCode).toBe(400);
    expect((await device.get('/api/device/runs/next?wait=99')).statusCode).toBe(400);
    expect((await device.claim('')).statusCode).toBe(400);
    expect(await runRow(queued.runId)).toMatchObject({ state: 'running', successful_iterations: 0 });
    expect(server.countRows('flow_run_logs')).toBe(0);
    expect(server.countRows('stored_files')).toBe(0);
  });
});

describe('a machine that stops answering', () => {
  beforeEach(() => start(1_000));

  it('loses its lease: the run closes as 299 with LEASE_LOST_MESSAGE, and a late report or finish gets 409 and charges nothing', async () => {
    const queued = await launchOnPc();
    const run = await device.leaseNext(0);
    expect(run.leaseMs).toBe(1_000);
    // The sweep runs every min(leaseMs, 5 s): closed within about two seconds.
    let row = await runRow(run.runId);
    for (let tries = 0; tries < 40 && row.state !== 'finished'; tries += 1) {
      await new Promise((done) => setTimeout(done, 100));
      row = await runRow(run.runId);
    }
    expect(row).toMatchObject({ state: 'finished', result: 'FlowAborted', launch_status: 299, message: LEASE_LOST_MESSAGE, cost: 0 });

    const report = await device.report(run.runId, { lines: [{ level: 'info', text: 'sigo aquí' }] });
    expect(report.statusCode).toBe(409);
    expect(report.json()).toMatchObject({ code: 'LEASE_LOST', message: LEASE_LOST_MESSAGE });
    const late = await device.finish(run.runId, successWith({ 'tarde.pdf': '%PDF' }, 5));
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ closed: false });
    expect(ledgerRows()).toBe(0);
    expect(server.countRows('stored_files')).toBe(0);
    const state = (await ana.get(stateUrl(queued.executionToken))).json() as ExecutionStateResponse;
    expect(state.output).toMatchObject({ status: 299, data: { message: LEASE_LOST_MESSAGE } });
  });

  it('closes a run still waiting for a machine that is deleted (299, not charged)', async () => {
    const queued = await launchOnPc();
    expect((await ana.request({ method: 'DELETE', url: `/api/machines/${machineId}` })).statusCode).toBe(204);
    let row = await runRow(queued.runId);
    for (let tries = 0; tries < 40 && row.state !== 'finished'; tries += 1) {
      await new Promise((done) => setTimeout(done, 100));
      row = await runRow(queued.runId);
    }
    expect(row).toMatchObject({ state: 'finished', launch_status: 299, machine_id: null, message: 'El dispositivo de esta ejecución se ha eliminado antes de empezar. No se ha cobrado.' });
    expect((await ana.get(stateUrl(queued.executionToken))).json()).toMatchObject({ machine: { name: 'PC del despacho', online: false }, output: { status: 299 } });
  });

  it('keeps a run whose machine reports in time, and shows the machine offline once it stops calling', async () => {
    await launchOnPc();
    const run = await device.leaseNext(0);
    for (let beat = 0; beat < 6; beat += 1) {
      await new Promise((done) => setTimeout(done, 300));
      expect((await device.report(run.runId, {})).statusCode).toBe(200);
    }
    expect(await runRow(run.runId)).toMatchObject({ state: 'running' });
    expect((await machinesOf(ana))[0]).toMatchObject({ online: true });
    await withDatabase(server, (db) => db.updateTable('machines').set({ last_seen_at: new Date(Date.now() - 60_000).toISOString() }).execute());
    expect((await machinesOf(ana))[0]).toMatchObject({ online: false });
  });
});
