import type { UploadColumns } from '#shared/api/flows.ts';
import type { FileStorage, StoredFile } from './service.ts';
import { fileExtension } from '#shared/files/index.ts';
import { firstSheetTable, readWorkbook } from '../../../resources/flows/_lib/workbook.ts';

/** Extensions read as workbooks (ColumnMapping, row counts for the cost estimate). */
export const WORKBOOK_EXTENSIONS: ReadonlySet<string> = new Set(['xlsx', 'xls', 'ods', 'csv']);

export function isWorkbookName(name: string): boolean {
  return WORKBOOK_EXTENSIONS.has(fileExtension(name));
}

/**
 * The first sheet's header and data row count, read exactly as the robots read it (the flows' own
 * workbook helpers), so the headers a user maps are the ones the robot finds. Null when the file
 * cannot be read as a workbook; an empty sheet has no columns and no rows.
 */
export function workbookColumns(name: string, data: Uint8Array): UploadColumns | null {
  const workbook = readWorkbook({ name, data });
  if (workbook === null) return null;
  const table = firstSheetTable(workbook);
  if (table === null) return { sheet: workbook.SheetNames[0] ?? '', columns: [], rowCount: 0 };
  return { sheet: table.sheetName, columns: table.headers.filter((header) => header !== ''), rowCount: table.dataRows.length };
}

/** Workbooks up to this size are read on the request thread (a few ms); larger ones in a worker. */
export const INLINE_WORKBOOK_BYTES = 2_000_000;
const CACHED_UPLOADS = 200;

/**
 * The columns of uploads, read once each (an upload never changes): the launcher asks for them to
 * map columns, and the launch reads the row count again for its cost estimate.
 */
export class UploadColumnsReader {
  private readonly cache = new Map<string, UploadColumns | null>();

  constructor(
    private readonly storage: FileStorage,
    private readonly readLarge: (name: string, data: Uint8Array) => Promise<UploadColumns | null>,
  ) {}

  /** Null for a file that is not a workbook or cannot be read as one. */
  async columnsOf(upload: Pick<StoredFile, 'id' | 'name' | 'storage_key'>): Promise<UploadColumns | null> {
    if (!isWorkbookName(upload.name)) return null;
    if (this.cache.has(upload.id)) return this.cache.get(upload.id) ?? null;
    const data = await this.storage.read(upload.storage_key);
    const columns = data.byteLength <= INLINE_WORKBOOK_BYTES ? workbookColumns(upload.name, data) : await this.readLarge(upload.name, data);
    if (this.cache.size >= CACHED_UPLOADS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(upload.id, columns);
    return columns;
  }
}
