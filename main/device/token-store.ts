import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { SecretBox } from '../certificates/secret-box.ts';

/** What this PC keeps to act as its machine: the server, the device token and the machine it stands for. */
export interface DeviceLinkRecord {
  serverUrl: string;
  deviceToken: string;
  machine: { _id: string; name: string };
}

export interface DeviceTokenStore {
  /** Null when this PC is not linked. Throws (SecretBoxError) when the file was sealed by another key. */
  read(): Promise<DeviceLinkRecord | null>;
  write(record: DeviceLinkRecord): Promise<void>;
  clear(): Promise<void>;
}

const recordSchema = z.object({
  serverUrl: z.string(),
  deviceToken: z.string(),
  machine: z.object({ _id: z.string(), name: z.string() }),
});
const fileSchema = z.object({ version: z.literal(1), sealed: z.string() });

/**
 * The link in one file of the host's data folder, the whole record sealed by the host's secret box
 * (Electron: safeStorage; agent: the 0600 key file), so the token is never on disk in the clear.
 * Written under another name and renamed into place, so a crash never leaves half a file.
 */
export function fileTokenStore(file: string, box: SecretBox): DeviceTokenStore {
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const stored = fileSchema.safeParse(safeJson(text));
      if (!stored.success) return null;
      const record = recordSchema.safeParse(safeJson(await box.open(stored.data.sealed)));
      return record.success ? record.data : null;
    },
    async write(record) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      const sealed = await box.seal(JSON.stringify(recordSchema.parse(record)));
      await writeFile(draft, JSON.stringify({ version: 1, sealed }), { mode: 0o600 });
      await rename(draft, file);
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
