import { describe, expect, it } from 'vitest';
import { GetMachineHashCode } from './GetMachineHashCode.ts';
import { fakeContext } from './test-context.ts';
import { hashMachineId, machineIdentityReader } from '../machine/machine-id.ts';

describe('GetMachineHashCode', () => {
  it('returns the same hash on every call for one machine', async () => {
    const machine = machineIdentityReader({
      platform: 'linux',
      readFile: async () => 'f00dfeed',
      runCommand: async () => '',
      hostname: () => 'ASESORIA-PC',
      fallbackIdFile: '/tmp/unused',
      writeFile: async () => undefined,
    });
    const ctx = fakeContext({ machine });
    const first = await GetMachineHashCode({}, ctx);
    expect(first).toEqual({ machineHashCode: hashMachineId('f00dfeed'), machineName: 'ASESORIA-PC' });
    await expect(GetMachineHashCode({}, ctx)).resolves.toEqual(first);
  });
});
