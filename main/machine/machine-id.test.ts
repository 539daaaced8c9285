import { describe, expect, it, vi } from 'vitest';
import type { MachineIdSources } from './machine-id.ts';
import { hashMachineId, machineIdentityReader, readMachineId } from './machine-id.ts';

function sources(overrides: Partial<MachineIdSources>): MachineIdSources {
  return {
    platform: 'linux',
    readFile: async () => '',
    runCommand: async () => '',
    hostname: () => 'OFICINA-01',
    fallbackIdFile: '/home/asesor/.autoasesor/machine-id',
    writeFile: async () => undefined,
    ...overrides,
  };
}

describe('readMachineId', () => {
  it('reads /etc/machine-id on Linux', async () => {
    const readFile = vi.fn(async (path: string) => (path === '/etc/machine-id' ? 'abc123\n' : ''));
    await expect(readMachineId(sources({ readFile }))).resolves.toBe('abc123');
  });

  it('falls back to the dbus machine id', async () => {
    const readFile = async (path: string) => {
      if (path === '/var/lib/dbus/machine-id') return 'dbus-id';
      throw new Error('ENOENT');
    };
    await expect(readMachineId(sources({ readFile }))).resolves.toBe('dbus-id');
  });

  it('reads the MachineGuid from the Windows registry', async () => {
    const out = '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography\r\n    MachineGuid    REG_SZ    4C4C4544-0042-3510-8052-B4C04F4D3732\r\n';
    await expect(readMachineId(sources({ platform: 'win32', runCommand: async () => out }))).resolves.toBe('4c4c4544-0042-3510-8052-b4c04f4d3732');
  });

  it('reads the IOPlatformUUID on macOS', async () => {
    const out = '  | "IOPlatformUUID" = "A1B2C3D4-0000-1111-2222-333344445555"\n';
    await expect(readMachineId(sources({ platform: 'darwin', runCommand: async () => out }))).resolves.toBe('a1b2c3d4-0000-1111-2222-333344445555');
  });

  it('generates an id of its own once when the OS has none, and keeps using it', async () => {
    const files = new Map<string, string>();
    const disk = {
      readFile: async (path: string) => files.get(path) ?? Promise.reject(new Error('ENOENT')),
      writeFile: async (path: string, text: string) => void files.set(path, text),
    };
    const first = await readMachineId(sources(disk));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(files.get('/home/asesor/.autoasesor/machine-id')).toBe(first);
    await expect(readMachineId(sources(disk))).resolves.toBe(first);
  });

  it('falls back to its own id when the Windows registry cannot be read', async () => {
    const kept = { readFile: async (path: string) => (path.endsWith('machine-id') ? 'kept-id' : '') };
    await expect(readMachineId(sources({ platform: 'win32', runCommand: async () => Promise.reject(new Error('denied')), ...kept }))).resolves.toBe('kept-id');
  });

  it('fails with a Spanish message when no id can be read or kept', async () => {
    const readOnly = sources({ writeFile: async () => Promise.reject(new Error('EROFS')) });
    await expect(readMachineId(readOnly)).rejects.toThrow('No se ha podido leer ni guardar el identificador de este equipo.');
  });
});

describe('hashMachineId', () => {
  it('is a stable 64-hex digest that differs between machines', () => {
    expect(hashMachineId('abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashMachineId('abc')).toBe(hashMachineId('abc'));
    expect(hashMachineId('abc')).not.toBe(hashMachineId('abd'));
  });
});

describe('machineIdentityReader', () => {
  it('reads the OS once and returns the same identity afterwards', async () => {
    const readFile = vi.fn(async () => 'machine-1');
    const read = machineIdentityReader(sources({ readFile }));
    const first = await read();
    const second = await read();
    expect(second).toEqual(first);
    expect(first).toEqual({ machineHashCode: hashMachineId('machine-1'), machineName: 'OFICINA-01' });
    expect(readFile).toHaveBeenCalledTimes(1);
  });
});
