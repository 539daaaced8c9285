import type { Kysely } from 'kysely';
import { acceptedTypesText, claimedFileType } from '#shared/files/index.ts';
import type { Database } from '../../db/schema.ts';
import { FileRefusal, wrongType } from '../../files/errors.ts';
import { INSPECTED_TYPES, WORKBOOK_TYPES } from '../../files/inspected-types.ts';
import type { Inspection } from '../../files/inspection.ts';
import type { UploadInspector } from '../../files/inspector.ts';
import { checkedByFileType, contentMatches, describeType, looksLikeSvg } from '../../files/sniff.ts';
import { HttpError } from '../../http/errors.ts';
import type { UploadCounts } from '../runs/cost.ts';
import { saveInspection, storedInspection, type FileStorage, type StoredFile } from './service.ts';

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * A refused file as the upload answers it: 413 over a cap (the message names the cap), 422 unreadable
 * as what it claims to be, 415 another type than its name says (the message lists the accepted types).
 */
export function refusalError(name: string, refusal: FileRefusal): HttpError {
  switch (refusal.kind) {
    case 'cap':
      return new HttpError(413, 'FILE_OVER_LIMIT', `«${name}» no se ha guardado. ${sentence(refusal.message)}`, { details: { file: name } });
    case 'unreadable':
      return new HttpError(422, 'FILE_UNREADABLE', `No se puede leer «${name}». ${sentence(refusal.message)}`, { details: { file: name } });
    case 'type':
      return new HttpError(415, 'FILE_TYPE_REFUSED', `«${name}» no se admite. ${sentence(refusal.message)} Tipos admitidos: ${acceptedTypesText()}`, { details: { file: name } });
  }
}

/**
 * What uploads hold, found once: a new upload is inspected as it is stored (workbooks and text in a
 * child process through the UploadInspector, the rest by their magic with file-type) and the answer is
 * kept with it; readers (the columns route, the launch's estimate) read that, never the file. An
 * upload stored before inspections existed is inspected the first time it is asked for, in the child
 * too, and kept.
 */
export class UploadInspections {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: FileStorage,
    private readonly inspector: UploadInspector,
  ) {}

  /**
   * Finishes judging an upload just stored at `path` whose first bytes (`start`) already fit `type`.
   * Throws a FileRefusal.
   */
  async inspectNew(path: string, name: string, type: string, start: Buffer): Promise<Inspection> {
    if (INSPECTED_TYPES.has(type)) return this.inspector.inspect({ path, name, type });
    if (checkedByFileType(type)) {
      const reason = await contentMatches(type, path);
      if (reason !== null) throw wrongType(reason);
    } else if (type === 'svg' && !looksLikeSvg(start)) {
      throw wrongType(`No es ${describeType('svg')}: no tiene un elemento <svg> al principio`);
    }
    return { detectedType: type, sheet: null, entryCount: null };
  }

  /** The upload's inspection; an older upload is inspected now (off the event loop) and kept. */
  async of(upload: StoredFile): Promise<Inspection | FileRefusal> {
    const stored = storedInspection(upload);
    if (stored !== null) return stored;
    const type = claimedFileType(upload.name) ?? '';
    if (!INSPECTED_TYPES.has(type)) return { detectedType: type, sheet: null, entryCount: null };
    try {
      const inspection = await this.inspector.inspect({ path: this.storage.pathOf(upload.storage_key), name: upload.name, type });
      await saveInspection(this.db, upload.id, inspection);
      return inspection;
    } catch (error) {
      if (error instanceof FileRefusal) return error;
      throw error;
    }
  }

  /**
   * The rows and FIE entries a launch's uploads hold (for its estimate). An upload that cannot be read
   * refuses the launch (422): it never counts as 0 rows, which would estimate the launch at nothing.
   */
  async counts(uploads: readonly StoredFile[]): Promise<UploadCounts> {
    let rows: number | null = null;
    let entries: number | null = null;
    for (const upload of uploads) {
      const inspection = await this.of(upload);
      if (inspection instanceof FileRefusal) {
        throw new HttpError(422, 'FILE_UNREADABLE', `No se puede leer «${upload.name}». ${sentence(inspection.message)} Súbelo de nuevo.`, { details: { file: upload.name } });
      }
      if (inspection.sheet !== null && WORKBOOK_TYPES.has(inspection.detectedType)) {
        rows = (rows ?? 0) + inspection.sheet.rowCount;
        // A FIE exported to a spreadsheet has one row per parte.
        entries = (entries ?? 0) + inspection.sheet.rowCount;
      } else if (inspection.entryCount !== null) {
        entries = (entries ?? 0) + inspection.entryCount;
      }
    }
    return { rows, entries };
  }
}
