import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { RobotOutput } from '#shared/flows/robot.ts';

/**
 * The outputs a run's robot writes as it goes (RobotContext.output), on disk in the run's staging folder
 * (run-process.ts, in its child process): each one written to '<n>.part' chunk by chunk and renamed to
 * '<n>' when the robot closes it, so a file that is not '.part' is whole. Nothing here is indexed: the
 * run's closing moves the closed files into storage and lists them in its one transaction
 * (runs/closing.ts), or removes the folder when the run gives nothing (a crash, a stop, a throw).
 */

/** Under the storage root, so closing renames the outputs into storage instead of copying them across disks. */
export const STAGING_FOLDER = '.salidas';

/** The staging folder of one run: '<storage root>/.salidas/<run id>'. */
export function stagingFolderOf(storageRoot: string, runId: string): string {
  return join(storageRoot, STAGING_FOLDER, runId);
}

/**
 * Removes the staging folders of runs that are over (or unknown): a process killed in the middle of a
 * run leaves its folder behind. Asked per folder, because another process may be writing its own.
 */
export async function sweepStaging(storageRoot: string, isOver: (runIds: string[]) => Promise<Set<string>>): Promise<number> {
  // A bounded number per sweep (the next sweep takes the rest): one query's parameters stay few.
  const names = (await readdir(join(storageRoot, STAGING_FOLDER)).catch(() => [] as string[])).slice(0, 500);
  if (names.length === 0) return 0;
  const over = await isOver(names);
  for (const name of over) await removeStaging(join(storageRoot, STAGING_FOLDER, name));
  return over.size;
}

/** A closed output: the name the robot gave it and where it waits. */
export interface StagedOutput {
  name: string;
  path: string;
  size: number;
}

export class OutputStaging {
  private readonly opened: { name: string; path: string; size: number; closed: boolean }[] = [];

  constructor(readonly folder: string) {}

  /** A sink for the robot: every write awaited by the disk (its backpressure), then closed and renamed. */
  open(name: string): RobotOutput {
    const index = this.opened.length;
    const entry = { name: String(name), path: join(this.folder, String(index)), size: 0, closed: false };
    this.opened.push(entry);
    const partial = `${entry.path}.part`;
    let handle: Promise<FileHandle> | null = null;
    const file = () => (handle ??= open(partial, 'wx'));
    return {
      async write(chunk) {
        if (entry.closed) throw new Error(`La salida «${entry.name}» ya está cerrada`);
        const opened = await file();
        // A FileHandle writes from the chunk's own memory, offset and length; a partial write is finished here.
        for (let written = 0; written < chunk.byteLength; ) {
          const { bytesWritten } = await opened.write(chunk, written, chunk.byteLength - written);
          written += bytesWritten;
        }
        entry.size += chunk.byteLength;
      },
      async close() {
        if (entry.closed) return;
        await (await file()).close();
        await rename(partial, entry.path);
        entry.closed = true;
      },
    };
  }

  /** The closed outputs, in the order they were opened (those left open are not outputs). */
  closed(): StagedOutput[] {
    return this.opened.filter((entry) => entry.closed).map(({ name, path, size }) => ({ name, path, size }));
  }
}

/** Removes a staging folder and whatever is left in it. */
export async function removeStaging(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}
