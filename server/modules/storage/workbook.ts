import type { UploadColumns } from '#shared/api/flows.ts';
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
