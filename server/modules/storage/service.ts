import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely, Transaction } from 'kysely';
import type { UploadedFile } from '#shared/api/flows.ts';
import { ALLOWED_FILE_TYPES, claimedFileType } from '#shared/files/index.ts';
import type { Database, StoredFilesTable } from '../../db/schema.ts';
import type { Inspection, SheetColumns } from '../../files/inspection.ts';

/** The storage module's 404 text, shared by its routes and the run inputs check. */
export const UPLOAD_NOT_FOUND_MESSAGE = 'No se ha encontrado este archivo';

/**
 * Files on disk under the storage folder, indexed in `stored_files` with their group: uploads the
 * launcher sends before a run, and the outputs of runs. A file's path is <group>/<id>, never its
 * user-given name, so names cannot climb out of the folder.
 */
export class FileStorage {
  constructor(readonly root: string) {}

  pathOf(storageKey: string): string {
    return join(this.root, storageKey);
  }

  /** A fresh key for a file of this group. */
  newKey(groupId: string): { id: string; storageKey: string } {
    const id = randomUUID();
    return { id, storageKey: `${groupId}/${id}` };
  }

  /** Streams to disk; `guard` sees every chunk first and may throw to stop (the partial file is removed). */
  async writeStream(storageKey: string, source: Readable, guard: (chunk: Buffer) => void): Promise<number> {
    const path = this.pathOf(storageKey);
    await mkdir(dirname(path), { recursive: true });
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        try {
          guard(chunk);
          size += chunk.length;
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
    const sink = createWriteStream(path);
    try {
      await pipeline(source, counter, sink);
    } catch (error) {
      // A write stream destroyed while it is still opening its file creates the file afterwards:
      // removing it before 'close' could leave an empty file behind (seen under load).
      // (events.once would reject on the 'error' the pipeline destroys it with.)
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await this.remove([storageKey]);
      throw error;
    }
    return size;
  }

  /** Writes a whole file; one that fails half-way (a full disk) is removed, not left without a row. */
  async write(storageKey: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(storageKey);
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeFile(path, data);
    } catch (error) {
      await this.remove([storageKey]);
      throw error;
    }
  }

  /**
   * Moves a file already written (a run's streamed output, storage/staged-outputs.ts) under this key:
   * a rename when it is on the same disk, else a copy and the original removed.
   */
  async adopt(path: string, storageKey: string): Promise<void> {
    const target = this.pathOf(storageKey);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      try {
        await copyFile(path, target);
      } catch (copyError) {
        await this.remove([storageKey]);
        throw copyError;
      }
      await rm(path, { force: true });
    }
  }

  read(storageKey: string): Promise<Buffer> {
    return readFile(this.pathOf(storageKey));
  }

  async remove(storageKeys: readonly string[]): Promise<void> {
    await Promise.all(storageKeys.map((key) => rm(this.pathOf(key), { force: true })));
  }
}

/**
 * The MIME type stored with a file, from the type its content was found to be, else from its name
 * (the browser's claim is not trusted); a name without extension is a FIE's.
 */
export function contentTypeOf(name: string, detectedType?: string | null): string {
  return ALLOWED_FILE_TYPES[detectedType ?? claimedFileType(name) ?? '']?.[0] ?? 'application/octet-stream';
}

const INSPECTION_COLUMNS = ['detected_type', 'sheet_name', 'sheet_columns', 'row_count', 'entry_count'] as const;

export type StoredFile = Pick<StoredFilesTable, 'id' | 'name' | 'size' | 'content_type' | 'storage_key' | 'kind' | 'run_id' | (typeof INSPECTION_COLUMNS)[number]>;

/** One of the group's uploads, or undefined (another group's file is as missing as a deleted one). */
export async function findGroupUpload(db: Kysely<Database>, groupId: string, id: string): Promise<StoredFile | undefined> {
  return db
    .selectFrom('stored_files')
    .select(['id', 'name', 'size', 'content_type', 'storage_key', 'kind', 'run_id', ...INSPECTION_COLUMNS])
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .where('kind', '=', 'upload')
    .executeTakeFirst();
}

export interface NewStoredFile {
  id: string;
  storageKey: string;
  name: string;
  size: number;
  /** What an upload's content was found to be (outputs have none). */
  inspection?: Inspection;
}

/** The stored_files columns of an inspection. */
export function inspectionColumns(inspection: Inspection): Pick<StoredFilesTable, (typeof INSPECTION_COLUMNS)[number]> {
  return {
    detected_type: inspection.detectedType,
    sheet_name: inspection.sheet?.sheet ?? null,
    sheet_columns: inspection.sheet ? JSON.stringify(inspection.sheet.columns) : null,
    row_count: inspection.sheet?.rowCount ?? null,
    entry_count: inspection.entryCount,
  };
}

const NO_INSPECTION = { detected_type: null, sheet_name: null, sheet_columns: null, row_count: null, entry_count: null } as const;

/** The inspection stored with an upload, or null for one stored before uploads were inspected. */
export function storedInspection(file: Pick<StoredFile, (typeof INSPECTION_COLUMNS)[number]>): Inspection | null {
  if (file.detected_type === null) return null;
  const sheet: SheetColumns | null =
    file.sheet_name === null || file.row_count === null ? null : { sheet: file.sheet_name, columns: JSON.parse(file.sheet_columns ?? '[]') as string[], rowCount: Number(file.row_count) };
  return { detectedType: file.detected_type, sheet, entryCount: file.entry_count === null ? null : Number(file.entry_count) };
}

/** Keeps the inspection of an upload stored before uploads were inspected. */
export async function saveInspection(db: Kysely<Database>, id: string, inspection: Inspection): Promise<void> {
  await db.updateTable('stored_files').set(inspectionColumns(inspection)).where('id', '=', id).execute();
}

/** Indexes files already on disk; inside the caller's transaction when a run closes. */
export async function insertStoredFiles(
  db: Kysely<Database> | Transaction<Database>,
  owner: { groupId: string; userId: string; kind: 'upload' | 'output'; runId: string | null },
  files: readonly NewStoredFile[],
  now: Date,
): Promise<UploadedFile[]> {
  if (files.length === 0) return [];
  await db
    .insertInto('stored_files')
    .values(
      files.map((file) => ({
        id: file.id,
        group_id: owner.groupId,
        user_id: owner.userId,
        kind: owner.kind,
        run_id: owner.runId,
        name: file.name,
        size: file.size,
        content_type: contentTypeOf(file.name, file.inspection?.detectedType),
        storage_key: file.storageKey,
        created_at: now.toISOString(),
        // Every row names every column: SQLite has no DEFAULT in a multi-row VALUES.
        ...(file.inspection ? inspectionColumns(file.inspection) : NO_INSPECTION),
      })),
    )
    .execute();
  return files.map(({ id, name, size }) => ({ id, name, size }));
}
