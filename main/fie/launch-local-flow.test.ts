/**
 * 'Obtener FIE de SILTRA' and its siblings have no robot: launched from the desktop's window (LaunchFlow)
 * the run its PC leases goes to the FIE local process, whether the lease names the process (a server
 * that knows the flow) or not (an older one: the desktop's own catalogue says it). Plain Node: a fake
 * device API, a fake FIE server and a SILTRA folder in a temporary directory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceRunOutcome } from '#shared/api/devices.ts';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { dispatch } from '../bridge/registry.ts';
import { fakeContext } from '../bridge/test-context.ts';
import { createDeviceLink } from '../device/connection.ts';
import { createDeviceRunner } from '../device/run-loop.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from '../device/testing/fake-device-api.ts';
import { memoryTokenStore } from '../device/testing/memory-token-store.ts';
import type { RobotJob, RobotRuntime } from '../robots/types.ts';
import { createFieDesktop } from './desktop.ts';
import { withLocalProcesses } from './local-processes.ts';
import { startFakeFieServer, type FakeFieServer } from './testing/fake-fie-server.ts';

/** 07:00 UTC on the 26th: 'yesterday' at the office is the 25th. */
const NOW = new Date('2026-11-26T07:00:00Z');

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A linked PC whose run loop takes nothing by itself (only LaunchFlow starts runs), with the local processes over a robots runtime that records what reached it. */
async function officePc(): Promise<{ api: FakeDeviceApi; fieServer: FakeFieServer; robotJobs: RobotJob[]; ctx: ReturnType<typeof fakeContext> }> {
  const api = await startFakeDeviceApi();
  const fieServer = await startFakeFieServer();
  const siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
  const a3 = await mkdtemp(join(tmpdir(), 'a3-'));
  const outputRoot = await mkdtemp(join(tmpdir(), 'launch-local-'));
  await writeFile(join(siltra, 'FIE_20261125.txt'), sampleFierFile('2026-11-25', 3).bytes);
  const fie = createFieDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: fieServer.url, deviceToken: fieServer.deviceToken, machine: api.machine }) },
    certificates: { clientCertificate: async () => Promise.reject(new Error('FIER is not used here')) },
    settings: async () => ({ siltraFolder: siltra, fierUrl: null, fierCa: undefined, a3ImportDir: a3, a3AnswerTimeoutMs: 5000 }),
    fetch,
    now: () => NOW,
  });
  const robotJobs: RobotJob[] = [];
  const robots: RobotRuntime = {
    start: (job) => {
      robotJobs.push(job);
      return { runId: job.runId, outcome: Promise.resolve({ kind: 'failed', message: 'Este robot no está en este equipo' }), stop: () => undefined };
    },
    running: () => 0,
  };
  const device = createDeviceLink({ store: memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine }), fetch });
  const runner = createDeviceRunner({ link: device, runtime: withLocalProcesses(robots, { fie: () => fie, now: () => NOW }), outputRoot, emit: () => undefined, log: () => undefined, maxConcurrentRuns: 0, claimRaceMs: 100 });
  cleanups.push(
    () => api.close(),
    () => fieServer.close(),
    ...[siltra, a3, outputRoot].map((folder) => () => rm(folder, { recursive: true, force: true })),
    () => runner.shutdown(2000),
  );
  return { api, fieServer, robotJobs, ctx: fakeContext({ device, robots: runner }) };
}

async function finishOf(api: FakeDeviceApi, runId: string): Promise<DeviceRunOutcome> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const [finish] = api.finishes.get(runId) ?? [];
    if (finish) return finish;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the run never finished');
}

describe('launching a local-process flow from the window', () => {
  it.each([
    ['a lease without the process (older server): the catalogue of this PC says it', {}],
    ['a lease that names it', { localProcess: 'get-fie-siltra' }],
  ])("'Obtener FIE de SILTRA', %s: yesterday's FIE from the SILTRA folder is uploaded, no robot starts, and the run is charged per FIE", async (_case, lease) => {
    const { api, fieServer, robotJobs, ctx } = await officePc();
    const run = api.queue({ flowId: 'obtener-fie-siltra', flowName: 'Obtener FIE de SILTRA', remote: false, inputs: { certificado: null }, ...lease });
    const launched = await dispatch('LaunchFlow', { flowId: 'obtener-fie-siltra', flowInputs: {}, executionToken: run.executionToken }, ctx);
    expect(launched).toMatchObject({ ok: true, data: { runId: run.runId } });

    const finish = await finishOf(api, run.runId);
    expect(finish).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1 });
    expect(robotJobs).toEqual([]);
    expect(fieServer.documents).toHaveLength(1);
    // Read from the SILTRA folder: the upload says so.
    expect(fieServer.requests.filter((request) => request.path.startsWith('/api/fie/upload')).map((request) => request.path)).toEqual(['/api/fie/upload?source=siltra']);
    const reported = (api.reports.get(run.runId) ?? []).flatMap((report) => report.lines.map((line) => line.text));
    expect(reported).toContain('Buscando los FIE del 25/11/2026 en SILTRA…');
  });

  it('a flow with a robot still goes to its robot', async () => {
    const { api, robotJobs, ctx } = await officePc();
    const run = api.queue({ remote: false });
    await dispatch('LaunchFlow', { flowId: run.flowId, flowInputs: {}, executionToken: run.executionToken }, ctx);
    await finishOf(api, run.runId);
    expect(robotJobs.map((job) => [job.flowId, job.localProcess])).toEqual([['descargar-justificantes', undefined]]);
  });
});
