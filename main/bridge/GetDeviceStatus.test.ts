import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import { createDeviceLink } from '../device/connection.ts';
import { createDeviceRunner } from '../device/run-loop.ts';
import { fakeRuntime } from '../device/testing/fake-runtime.ts';
import { memoryTokenStore } from '../device/testing/memory-token-store.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from '../device/testing/fake-device-api.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let api: FakeDeviceApi;
beforeEach(async () => {
  api = await startFakeDeviceApi();
});
afterEach(() => api.close());

describe('GetDeviceStatus', () => {
  it('answers not linked on a PC that never was', async () => {
    const ctx = fakeContext({ device: createDeviceLink({ store: memoryTokenStore(), fetch }) });
    await expect(dispatch('GetDeviceStatus', {}, ctx)).resolves.toEqual({ ok: true, data: { linked: false, serverUrl: null, machine: null, problem: null } });
  });

  it('shows the server and machine of a stored link', async () => {
    const device = createDeviceLink({ store: memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine }), fetch });
    await expect(dispatch('GetDeviceStatus', {}, fakeContext({ device }))).resolves.toEqual({
      ok: true,
      data: { linked: true, serverUrl: api.url, machine: api.machine, problem: null },
    });
  });

  it('says why once the server revoked the token (the run loop met a 401)', async () => {
    const device = createDeviceLink({ store: memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine }), fetch });
    api.revoke();
    const runner = createDeviceRunner({ link: device, runtime: fakeRuntime(), outputRoot: '/nonexistent', emit: () => undefined, log: () => undefined });
    await runner.start();
    for (let tries = 0; device.current() && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(dispatch('GetDeviceStatus', {}, fakeContext({ device }))).resolves.toEqual({
      ok: true,
      data: { linked: false, serverUrl: api.url, machine: api.machine, problem: DEVICE_TOKEN_INVALID_MESSAGE },
    });
    await runner.shutdown();
  });
});
