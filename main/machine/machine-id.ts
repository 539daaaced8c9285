import { createHash, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { MachineIdentity } from '../bridge/context.ts';

const run = promisify(execFile);

/** How to read the OS's own install identifier; injectable so tests need no real machine. */
export interface MachineIdSources {
  platform: NodeJS.Platform;
  readFile: (path: string) => Promise<string>;
  runCommand: (file: string, args: string[]) => Promise<string>;
  hostname: () => string;
  /** Where an id of our own is kept when the OS has none (containers, stripped images). */
  fallbackIdFile: string;
  writeFile: (path: string, text: string) => Promise<void>;
}

export const systemSources: MachineIdSources = {
  platform: process.platform,
  readFile: (path) => readFile(path, 'utf8'),
  runCommand: async (file, args) => (await run(file, args, { timeout: 5000, windowsHide: true })).stdout,
  hostname,
  fallbackIdFile: join(homedir(), '.autoasesor', 'machine-id'),
  writeFile: async (path, text) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { mode: 0o600 });
  },
};

/**
 * The OS install id: Windows MachineGuid, macOS IOPlatformUUID, Linux /etc/machine-id. These survive
 * reboots and user changes and differ between machines, unlike MAC addresses or host names. Where the
 * OS has none, an id of our own is generated once and kept.
 */
export async function readMachineId(sources: MachineIdSources): Promise<string> {
  switch (sources.platform) {
    case 'win32': {
      const out = await sources.runCommand('reg', ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid']).catch(() => '');
      const guid = /MachineGuid\s+REG_SZ\s+([0-9a-f-]+)/i.exec(out)?.[1];
      if (guid) return guid.toLowerCase();
      break;
    }
    case 'darwin': {
      const out = await sources.runCommand('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']).catch(() => '');
      const uuid = /"IOPlatformUUID"\s*=\s*"([0-9A-F-]+)"/i.exec(out)?.[1];
      if (uuid) return uuid.toLowerCase();
      break;
    }
    default:
      for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
        const id = (await sources.readFile(path).catch(() => '')).trim();
        if (id) return id;
      }
  }
  return ownMachineId(sources);
}

/** An id generated once and kept, so the hash stays the same across restarts even without an OS id. */
async function ownMachineId(sources: MachineIdSources): Promise<string> {
  const kept = (await sources.readFile(sources.fallbackIdFile).catch(() => '')).trim();
  if (kept) return kept;
  const generated = randomUUID();
  try {
    await sources.writeFile(sources.fallbackIdFile, generated);
  } catch {
    throw new Error('No se ha podido leer ni guardar el identificador de este equipo.');
  }
  return generated;
}

/** Hashed so the raw OS id never leaves the machine; prefixed so the hash is ours alone. */
export function hashMachineId(machineId: string): string {
  return createHash('sha256').update(`autoasesor:${machineId}`).digest('hex');
}

/** Reads the identity once and remembers it: it cannot change while the app runs. */
export function machineIdentityReader(sources: MachineIdSources = systemSources): () => Promise<MachineIdentity> {
  let identity: Promise<MachineIdentity> | undefined;
  return () => {
    identity ??= readMachineId(sources).then((id) => ({ machineHashCode: hashMachineId(id), machineName: sources.hostname() }));
    identity.catch(() => (identity = undefined));
    return identity;
  };
}
