import { opendir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Every column that holds a storage key (a path under STORAGE_DIR). A file no row of these names is an
 * orphan. A module that stores files under another column must be added here, or its files are swept.
 */
export const STORAGE_KEY_COLUMNS = [
  { table: 'stored_files', column: 'storage_key' },
  { table: 'altas_files', column: 'storage_key' },
  { table: 'altas_forms', column: 'logo_key' },
  { table: 'dehu_documents', column: 'storage_key' },
] as const satisfies readonly { table: keyof Database; column: string }[];

/**
 * How old a file must be before it can be an orphan: far longer than any upload takes from its first
 * byte on disk to its row (streaming, the inspection's queue and time limit, the insert), so a file of
 * an upload in flight, in this process or another sharing the folder, is never taken.
 */
export const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;

export interface OrphanSweepOptions {
  db: Kysely<Database>;
  root: string;
  remove: (storageKeys: readonly string[]) => Promise<void>;
  /** The files' clock: their modification times are the system's, whatever the app's clock says. */
  wallClock?: () => number;
  graceMs?: number;
  /** Keys asked about per query. */
  batchSize?: number;
}

/** The storage key of every file under `root` (forward slashes, as keys are stored), with its modification time. */
async function* storedFiles(root: string, dir = root): AsyncGenerator<{ key: string; path: string }> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  for await (const entry of handle) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* storedFiles(root, path);
    else if (entry.isFile()) yield { key: relative(root, path).split(sep).join('/'), path };
  }
}

/** The keys of `keys` that some row names. */
async function indexed(db: Kysely<Database>, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const { table, column } of STORAGE_KEY_COLUMNS) {
    // The table and column come from the list above, never from input.
    const rows = await (db as unknown as Kysely<Record<string, Record<string, string | null>>>).selectFrom(table).select(`${column} as key`).where(column, 'in', keys).execute();
    for (const row of rows) if (typeof row.key === 'string') found.add(row.key);
  }
  return found;
}

/**
 * Removes the files under the storage folder that no row names (STORAGE_KEY_COLUMNS) and that were
 * last written more than the grace period ago: what a process killed between writing a file and
 * indexing it, or a failed removal, left behind. Safe with several processes sharing the folder: the
 * rows are read after the files are listed, a young file is never taken, and removing a file twice is
 * harmless. Answers how many files it removed.
 */
export async function sweepOrphans(options: OrphanSweepOptions): Promise<number> {
  const { db, root, remove } = options;
  const cutoff = (options.wallClock ?? Date.now)() - (options.graceMs ?? ORPHAN_GRACE_MS);
  const batchSize = options.batchSize ?? 500;
  let removed = 0;
  let batch: string[] = [];
  const settle = async () => {
    if (batch.length === 0) return;
    const known = await indexed(db, batch);
    const orphans = batch.filter((key) => !known.has(key));
    batch = [];
    if (orphans.length === 0) return;
    await remove(orphans);
    removed += orphans.length;
  };
  for await (const file of storedFiles(root)) {
    const stats = await stat(file.path).catch(() => null);
    if (stats === null || stats.mtimeMs > cutoff) continue;
    batch.push(file.key);
    if (batch.length >= batchSize) await settle();
  }
  await settle();
  return removed;
}
