import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processIsAlive } from './import-leases.ts';

/**
 * Where FIE uploads wait while they are judged and decoded (the decode child reads them from here):
 * one folder per request, named `<pid>-<random>` after the server process that made it. A process
 * killed mid-upload never removes its folder, so the folders of processes that are gone, and this
 * process's own that no request uses any more, are removed at start and after every upload.
 */
export const FIE_UPLOADS_ROOT = join(tmpdir(), 'autoasesor-fie-uploads');

/** This process's folders in use (every app of the process: tests start many). */
const inUse = new Set<string>();

export async function newUploadFolder(root = FIE_UPLOADS_ROOT): Promise<string> {
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, `${process.pid}-`));
  inUse.add(dir);
  return dir;
}

/** The request is done with its folder: removed, with any stale ones. */
export async function removeUploadFolder(dir: string, root = FIE_UPLOADS_ROOT): Promise<void> {
  inUse.delete(dir);
  await rm(dir, { recursive: true, force: true });
  await removeStaleUploadFolders(root);
}

/** Removes the folders no running request uses (see above); answers their names. */
export async function removeStaleUploadFolders(root = FIE_UPLOADS_ROOT): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const stale = names.filter((name) => {
    const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || pid <= 0) return true;
    return pid === process.pid ? !inUse.has(join(root, name)) : !processIsAlive(pid);
  });
  await Promise.all(stale.map((name) => rm(join(root, name), { recursive: true, force: true })));
  return stale;
}
