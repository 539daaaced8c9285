import { describe, expect, it, vi } from 'vitest';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import { ensureDeviceLinked } from './deviceLink.ts';
import type { DeviceStatus, RequestDeviceLink } from './deviceLink.ts';
import type { BridgeClient } from './types.ts';

const SERVER = 'https://app.autoasesor.es';
const HASH = 'a'.repeat(64);
const machine = { _id: '11111111-1111-4111-8111-111111111111', name: 'PC-ANA' };
const unlinked: DeviceStatus = { linked: false, serverUrl: null, machine: null, problem: null };
const linked: DeviceStatus = { linked: true, serverUrl: SERVER, machine, problem: null };

/** A bridge answering each command from `answers`, recording what it was asked. */
function fakeBridge(answers: Partial<Record<BridgeCommand, (args: unknown) => unknown>>) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: vi.fn(async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const answer = answers[command];
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    }),
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls };
}

const identity = () => ({ ok: true, data: { machineHashCode: HASH, machineName: 'PC-ANA' } });
const token = 'd'.repeat(43);
const grant: RequestDeviceLink = async () => ({ ok: true, link: { machine, deviceToken: token } });

describe('ensureDeviceLinked', () => {
  it('uses the link the desktop already holds for this server, asking the server for nothing', async () => {
    const requestLink = vi.fn(grant);
    const { bridge, calls } = fakeBridge({ GetDeviceStatus: () => ({ ok: true, data: linked }) });
    const outcome = await ensureDeviceLinked(bridge, requestLink, SERVER);
    expect(outcome).toEqual({ ok: true, machine, status: linked });
    expect(requestLink).not.toHaveBeenCalled();
    expect(calls.map((call) => call.command)).toEqual(['GetDeviceStatus']);
  });

  it("links again a PC this server linked for another account: its machine is not among the user's", async () => {
    const requestLink = vi.fn(grant);
    const colleague = { ...linked, machine: { _id: '22222222-2222-4222-8222-222222222222', name: 'PC-ANA' } };
    const { bridge, calls } = fakeBridge({
      GetDeviceStatus: () => ({ ok: true, data: colleague }),
      GetMachineHashCode: identity,
      LinkDevice: () => ({ ok: true, data: linked }),
    });
    const outcome = await ensureDeviceLinked(bridge, requestLink, SERVER, async (id) => id === machine._id);
    expect(outcome).toEqual({ ok: true, machine, status: linked });
    expect(requestLink).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.command)).toEqual(['GetDeviceStatus', 'GetMachineHashCode', 'LinkDevice']);
  });

  it('links an unlinked PC: its hash and name go to the server, the token to LinkDevice with this origin', async () => {
    const requestLink = vi.fn(grant);
    const { bridge, calls } = fakeBridge({
      GetDeviceStatus: () => ({ ok: true, data: unlinked }),
      GetMachineHashCode: identity,
      LinkDevice: () => ({ ok: true, data: linked }),
    });
    const outcome = await ensureDeviceLinked(bridge, requestLink, SERVER);
    expect(outcome.ok && outcome.machine).toEqual(machine);
    expect(requestLink).toHaveBeenCalledWith({ machineHashCode: HASH, machineName: 'PC-ANA' });
    expect(calls.at(-1)).toEqual({ command: 'LinkDevice', args: { serverUrl: SERVER, deviceToken: token } });
  });

  it('links again when the token was revoked or is for another server', async () => {
    for (const status of [{ ...linked, problem: 'Este dispositivo ya no está conectado a tu cuenta' }, { ...linked, serverUrl: 'http://127.0.0.1:8081' }]) {
      const requestLink = vi.fn(grant);
      const { bridge } = fakeBridge({
        GetDeviceStatus: () => ({ ok: true, data: status }),
        GetMachineHashCode: identity,
        LinkDevice: () => ({ ok: true, data: linked }),
      });
      expect((await ensureDeviceLinked(bridge, requestLink, SERVER)).ok).toBe(true);
      expect(requestLink).toHaveBeenCalledTimes(1);
    }
  });

  it('stops at the first failure with its Spanish message, and hands no token over when the server refuses', async () => {
    const refused = fakeBridge({ GetDeviceStatus: () => ({ ok: true, data: unlinked }), GetMachineHashCode: identity });
    const outcome = await ensureDeviceLinked(refused.bridge, async () => ({ ok: false, message: 'Tu sesión ha caducado' }), SERVER);
    expect(outcome).toEqual({ ok: false, message: 'Tu sesión ha caducado' });
    expect(refused.calls.some((call) => call.command === 'LinkDevice')).toBe(false);

    const rejected = fakeBridge({
      GetDeviceStatus: () => ({ ok: true, data: unlinked }),
      GetMachineHashCode: identity,
      LinkDevice: () => ({ ok: false, error: { code: 'FAILED', message: 'El servidor no acepta este dispositivo' } }),
    });
    expect(await ensureDeviceLinked(rejected.bridge, grant, SERVER)).toEqual({ ok: false, message: 'El servidor no acepta este dispositivo' });

    const noStatus = fakeBridge({ GetDeviceStatus: () => ({ ok: false, error: { code: 'UNAVAILABLE', message: 'No se ha podido contactar con el agente de escritorio' } }) });
    expect(await ensureDeviceLinked(noStatus.bridge, grant, SERVER)).toEqual({ ok: false, message: 'No se ha podido contactar con el agente de escritorio' });
  });
});
