import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { RobotOutput } from '#shared/flows/robot.ts';

/**
 * The outputs a desktop robot writes as it goes (RobotContext.output), in the run's own folder under
 * hidden names ('.autoasesor-<run>-<n>.part' while written, '.autoasesor-<run>-<n>' once closed): the
 * child process writes them (robot-process.ts); the runtime gives the closed ones their unique names
 * when the run ends with a result, and removes every one of them when it does not (runtime.ts).
 */

export interface StagedOutput {
  name: string;
  path: string;
  size: number;
}

const prefixOf = (runId: string) => `.autoasesor-${runId.replace(/[^\w-]/g, '_')}-`;

export class OutputStaging {
  private readonly opened: (StagedOutput & { closed: boolean })[] = [];

  constructor(
    private readonly folder: string,
    private readonly runId: string,
  ) {}

  open(name: string): RobotOutput {
    const entry = { name: String(name), path: join(this.folder, `${prefixOf(this.runId)}${this.opened.length}`), size: 0, closed: false };
    this.opened.push(entry);
    const partial = `${entry.path}.part`;
    let handle: Promise<FileHandle> | null = null;
    const file = () => (handle ??= open(partial, 'wx'));
    return {
      async write(chunk) {
        if (entry.closed) throw new Error(`La salida «${entry.name}» ya está cerrada`);
        const opened = await file();
        for (let written = 0; written < chunk.byteLength; ) written += (await opened.write(chunk, written, chunk.byteLength - written)).bytesWritten;
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

  /** The closed outputs, in the order they were opened. */
  closed(): StagedOutput[] {
    return this.opened.filter((entry) => entry.closed).map(({ name, path, size }) => ({ name, path, size }));
  }
}

/** The run's staged files still in its folder (closed or not), as names in it. */
export async function stagedNames(folder: string, runId: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(prefixOf(runId)));
}

/** Removes what the run staged in its folder: a run that did not end with a result leaves nothing. */
export async function discardStaged(folder: string, runId: string): Promise<void> {
  await Promise.all((await stagedNames(folder, runId)).map((name) => rm(join(folder, name), { force: true })));
}
