import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
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

const linkedContext = () => {
  const store = memoryTokenStore();
  return { store, ctx: fakeContext({ device: createDeviceLink({ store, fetch }) }) };
};

describe('LinkDevice', () => {
  it('keeps a token the server confirms and answers the new status', async () => {
    const { store, ctx } = linkedContext();
    await expect(dispatch('LinkDevice', { serverUrl: api.url, deviceToken: api.token }, ctx)).resolves.toEqual({
      ok: true,
      data: { linked: true, serverUrl: api.url, machine: api.machine, problem: null },
    });
    expect(store.saved()).toEqual({ serverUrl: api.url, deviceToken: api.token, machine: api.machine });
  });

  it("refuses a token the server does not know, with the server's message, and keeps nothing", async () => {
    const { store, ctx } = linkedContext();
    await expect(dispatch('LinkDevice', { serverUrl: api.url, deviceToken: 'n'.repeat(43) }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_LINKED', message: DEVICE_TOKEN_INVALID_MESSAGE },
    });
    expect(store.saved()).toBeNull();
  });

  it('refuses bad arguments before calling anyone', async () => {
    const { ctx } = linkedContext();
    for (const args of [
      { serverUrl: `${api.url}/api`, deviceToken: api.token },
      { serverUrl: 'javascript:alert(1)', deviceToken: api.token },
      { serverUrl: api.url, deviceToken: 'corto' },
      { serverUrl: api.url },
    ]) {
      await expect(dispatch('LinkDevice', args, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    }
    expect(api.calls).toEqual([]);
  });

  it('never sends the token over plain http to another machine', async () => {
    const { ctx } = linkedContext();
    await expect(dispatch('LinkDevice', { serverUrl: 'http://asesoria.example', deviceToken: api.token }, ctx)).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGS', message: expect.stringContaining('https://') },
    });
  });
});
