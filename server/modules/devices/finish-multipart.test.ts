/**
 * Issue 39 (2): a device's output files travel as multipart files after the outcome, not base64 in a
 * 60 MB JSON body; the JSON finish is DEVICE_FINISH_BODY_LIMIT. Sent as the desktop sends them
 * (main/device/server-client.ts finishBody is plain fetch FormData).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_FINISH_OUTPUTS_MAX_BYTES, devicesPaths, type DeviceRunOutcome } from '#shared/api/devices.ts';
import { pathFor, type ExecutionStateResponse } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DESKTOP_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, launch } from '../runs/test-support.ts';
import { DeviceClient, linkPc, successWith } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
let device: DeviceClient;
let token: string;
let machineId: string;
beforeEach(async () => {
  server = await startTestServer(TEST_FLOWS_CONFIG);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  const link = await linkPc(ana, 'despacho', 'PC del despacho');
  machineId = link.machine._id;
  token = link.deviceToken;
  device = new DeviceClient(server, token);
});
afterEach(async () => server.close());

async function leasedRun(): Promise<string> {
  const response = await launch(ana, DESKTOP_FLOW_ID, { certificate: 'AB'.repeat(32) }, { machineId });
  expect(response.statusCode, response.body).toBe(202);
  const queued = response.json() as ExecutionStateResponse;
  const run = await device.leaseNext(0);
  expect(run.runId).toBe(queued.runId);
  return run.runId;
}

/** The outcome in `outcome`, each file in `outputs` (as finishBody builds it), as bytes for inject. */
async function multipartFinish(outcome: DeviceRunOutcome, files: Buffer[]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append('outcome', JSON.stringify(outcome));
  for (const file of files) form.append('outputs', new Blob([new Uint8Array(file)]), 'output');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '', authorization: `Device ${token}` } };
}

describe('a finish with output files (multipart)', () => {
  it('stores each file under its name, as the JSON finish did', async () => {
    const runId = await leasedRun();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const outcome = { ...successWith({ 'justificante ñ.pdf': '', 'resumen.csv': '' }), outputs: [{ name: 'justificante ñ.pdf', base64: '' }, { name: 'resumen.csv', base64: '' }] } as DeviceRunOutcome;
    const body = await multipartFinish(outcome, [pdf, Buffer.from('nif;nombre\n1;Ana\n')]);
    const response = await server.app.inject({ method: 'POST', url: pathFor(devicesPaths.finish, { runId }), ...body });
    expect(response.statusCode, response.body).toBe(200);
    const download = await ana.get(`/api/flowlog/${runId}/outputs/${encodeURIComponent('justificante ñ.pdf')}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect((await ana.get(`/api/flowlog/${runId}/outputs/resumen.csv`)).body).toBe('nif;nombre\n1;Ana\n');
  });

  it('refuses files over DEVICE_FINISH_OUTPUTS_MAX_BYTES (413), files the outcome does not name, and a JSON finish over its limit, closing nothing', async () => {
    const runId = await leasedRun();
    const outcome = { ...successWith({ 'a.bin': '' }), outputs: [{ name: 'a.bin', base64: '' }] } as DeviceRunOutcome;
    const tooBig = await server.app.inject({ method: 'POST', url: pathFor(devicesPaths.finish, { runId }), ...(await multipartFinish(outcome, [Buffer.alloc(DEVICE_FINISH_OUTPUTS_MAX_BYTES + 1)])) });
    expect(tooBig.statusCode).toBe(413);
    const unnamed = await server.app.inject({ method: 'POST', url: pathFor(devicesPaths.finish, { runId }), ...(await multipartFinish(outcome, [Buffer.from('a'), Buffer.from('b')])) });
    expect(unnamed.statusCode).toBe(400);
    const json = await device.finish(runId, successWith({ 'a.bin': 'x'.repeat(600 * 1024) }));
    expect(json.statusCode).toBe(413);
    expect(server.countRows('stored_files')).toBe(0);
    const row = await ana.get(`/api/flowlog/${runId}`);
    expect(row.json()).toMatchObject({ state: 'running' });
  });
});
