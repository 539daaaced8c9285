import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStatusSchema } from '#shared/bridge/contract.ts';
import { readAppStatus, startAppStatusTicker } from './app-status.ts';
import { fakeContext } from './test-context.ts';

afterEach(() => vi.useRealTimers());

describe('AppStatus', () => {
  it('describes the host, machine, uptime, running robots and the device link', async () => {
    const status = await readAppStatus(fakeContext({ runningRobots: () => 2 }));
    expect(appStatusSchema.parse(status)).toEqual({
      hostVersion: '1.2.3',
      host: 'agent',
      machineName: 'OFICINA-01',
      uptimeSeconds: 5,
      runningRobots: 2,
      deviceLinked: false,
      at: '2026-11-23T08:00:05.000Z',
    });
  });

  it('says when this PC holds a device token', async () => {
    const ctx = fakeContext();
    const linked = fakeContext({ device: { ...ctx.device, status: async () => ({ linked: true, serverUrl: 'http://localhost:8081', machine: { _id: 'm', name: 'OFICINA-01' }, problem: null }) } });
    await expect(readAppStatus(linked)).resolves.toMatchObject({ deviceLinked: true });
  });

  it('is emitted every second until stopped', async () => {
    vi.useFakeTimers();
    const emitted: unknown[] = [];
    const stop = startAppStatusTicker(fakeContext(), (status) => emitted.push(status));
    await vi.advanceTimersByTimeAsync(3000);
    expect(emitted).toHaveLength(3);
    stop();
    await vi.advanceTimersByTimeAsync(3000);
    expect(emitted).toHaveLength(3);
  });
});
