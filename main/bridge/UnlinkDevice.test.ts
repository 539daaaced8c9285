import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeviceLink } from '../device/connection.ts';
import { memoryTokenStore } from '../device/testing/memory-token-store.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from '../device/testing/fake-device-api.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let api: FakeDeviceApi;
beforeEach(async () => {
  api = await startFakeDeviceApi();
});
afterEach(() => api.close());

describe('UnlinkDevice', () => {
  it('forgets the token, and the status says so', async () => {
    const store = memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine });
    const ctx = fakeContext({ device: createDeviceLink({ store, fetch }) });
    await expect(dispatch('GetDeviceStatus', {}, ctx)).resolves.toMatchObject({ ok: true, data: { linked: true } });
    await expect(dispatch('UnlinkDevice', {}, ctx)).resolves.toEqual({ ok: true, data: { linked: false, serverUrl: null, machine: null, problem: null } });
    expect(store.saved()).toBeNull();
    await expect(dispatch('GetDeviceStatus', {}, ctx)).resolves.toMatchObject({ ok: true, data: { linked: false } });
  });

  it('takes no arguments', async () => {
    await expect(dispatch('UnlinkDevice', { everything: true }, fakeContext())).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });
});
