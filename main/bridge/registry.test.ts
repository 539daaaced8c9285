import { describe, expect, it } from 'vitest';
import { bridgeCommands } from '#shared/bridge/contract.ts';
import { dispatch, handlers } from './registry.ts';
import { fakeContext, fakeWindow } from './test-context.ts';

describe('bridge registry', () => {
  it('has exactly one handler per contract command', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(bridgeCommands).sort());
  });

  it('wraps a handler result in an ok envelope', async () => {
    await expect(dispatch('Maximize', {}, fakeContext({ window: fakeWindow() }))).resolves.toEqual({ ok: true, data: { maximized: true } });
  });

  it('rejects unknown commands without running anything', async () => {
    await expect(dispatch('FormatDisk', {}, fakeContext())).resolves.toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    await expect(dispatch('__proto__', {}, fakeContext())).resolves.toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
  });

  it('rejects arguments that do not match the contract', async () => {
    const window = fakeWindow();
    const envelope = await dispatch('Minimize', { force: true }, fakeContext({ window }));
    expect(envelope).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(window.calls).toEqual([]);
  });

  it('turns handler failures into error envelopes instead of throwing', async () => {
    await expect(dispatch('Minimize', {}, fakeContext())).resolves.toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const broken = fakeContext({ machine: async () => { throw new Error('disk on fire'); } });
    await expect(dispatch('GetMachineHashCode', {}, broken)).resolves.toEqual({
      ok: false,
      error: { code: 'FAILED', message: 'No se ha podido completar GetMachineHashCode.' },
    });
  });

  it('checks handler results against the contract', async () => {
    const lying = fakeContext({ machine: async () => ({ machineHashCode: 'not-a-hash', machineName: 'x' }) });
    await expect(dispatch('GetMachineHashCode', {}, lying)).resolves.toMatchObject({ ok: false, error: { code: 'FAILED' } });
  });
});
