import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeviceLink } from '../device/connection.ts';
import { NOT_LINKED_MESSAGE } from '../device/errors.ts';
import { jobFolderFor } from '../device/run-files.ts';
import { createDeviceRunner, FLOW_MISMATCH_MESSAGE, type DeviceRunner } from '../device/run-loop.ts';
import { fakeRuntime } from '../device/testing/fake-runtime.ts';
import { memoryTokenStore } from '../device/testing/memory-token-store.ts';
import { ALREADY_STARTED_MESSAGE, startFakeDeviceApi, type FakeDeviceApi } from '../device/testing/fake-device-api.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let api: FakeDeviceApi;
let outputRoot: string;
let runner: DeviceRunner | null = null;
beforeEach(async () => {
  api = await startFakeDeviceApi();
  outputRoot = await mkdtemp(join(tmpdir(), 'launch-flow-'));
});
afterEach(async () => {
  await runner?.shutdown(2000);
  runner = null;
  await api.close();
  await rm(outputRoot, { recursive: true, force: true });
});

/** A linked PC whose run loop takes nothing from the queue by itself, so only LaunchFlow starts runs. */
function linkedPc() {
  const device = createDeviceLink({ store: memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine }), fetch });
  const runtime = fakeRuntime();
  runner = createDeviceRunner({ link: device, runtime, outputRoot, emit: () => undefined, log: () => undefined, maxConcurrentRuns: 0, claimRaceMs: 100 });
  return { runtime, ctx: fakeContext({ device, robots: runner }) };
}

describe('LaunchFlow', () => {
  it('leases the run the window created and starts its robot with the inputs the server kept', async () => {
    const { runtime, ctx } = linkedPc();
    const run = api.queue({ remote: false, inputs: { certificate: 'c'.repeat(64) } });
    await expect(dispatch('LaunchFlow', { flowId: run.flowId, flowInputs: { certificate: 'otro' }, executionToken: run.executionToken }, ctx)).resolves.toEqual({
      ok: true,
      data: { runId: run.runId, outputFolder: jobFolderFor(outputRoot, run) },
    });
    const robot = await runtime.nextRobot();
    expect(robot.job.inputs).toEqual({ certificate: 'c'.repeat(64) });
    expect(api.state(run.runId)).toBe('running');
  });

  it('is NOT_LINKED without a device token, and leases nothing', async () => {
    let launched = false;
    const ctx = fakeContext({
      device: createDeviceLink({ store: memoryTokenStore(), fetch }),
      robots: { launch: async () => ((launched = true), { runId: 'x', outputFolder: '/x' }), running: () => 0, outputRoot },
    });
    await expect(dispatch('LaunchFlow', { flowId: 'descargar-justificantes', flowInputs: {}, executionToken: 'abc' }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_LINKED', message: NOT_LINKED_MESSAGE },
    });
    expect(launched).toBe(false);
  });

  it("refuses another flow's run and closes it", async () => {
    const { runtime, ctx } = linkedPc();
    const run = api.queue({ flowId: 'modelo-303' });
    await expect(dispatch('LaunchFlow', { flowId: 'descargar-justificantes', flowInputs: {}, executionToken: run.executionToken }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'BAD_ARGS', message: FLOW_MISMATCH_MESSAGE },
    });
    expect(runtime.robots).toEqual([]);
    expect(api.state(run.runId)).toBe('closed');
  });

  it("answers the server's conflict when the run was already taken elsewhere", async () => {
    const { runtime, ctx } = linkedPc();
    const run = api.queue();
    api.loseLease(run.runId);
    await expect(dispatch('LaunchFlow', { flowId: run.flowId, flowInputs: {}, executionToken: run.executionToken }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'FAILED', message: ALREADY_STARTED_MESSAGE },
    });
    expect(runtime.robots).toEqual([]);
  });

  it('checks its arguments', async () => {
    const { ctx } = linkedPc();
    await expect(dispatch('LaunchFlow', { flowId: '', flowInputs: {}, executionToken: 'abc' }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    await expect(dispatch('LaunchFlow', { flowId: 'x', flowInputs: {} }, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(api.calls.filter((call) => call.path.endsWith('/claim'))).toEqual([]);
  });
});
