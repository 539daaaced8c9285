import type { UploadColumns } from '#shared/api/flows.ts';
import { firstSheetTable, readWorkbook } from '../../../resources/flows/_lib/workbook.ts';

/**
 * The first sheet's header and data row count, read exactly as the robots read it (the flows' own
 * workbook helpers), so the headers a user maps are the ones the robot finds. Null when the file
 * cannot be read as a workbook; an empty sheet has no columns and no rows.
 *
 * SheetJS holds the whole file: only the upload inspection's child process calls this, for .xls and
 * .ods (server/files/inspection.ts), once their size is bounded; .xlsx and .csv are streamed there.
 * Nothing on the server's request thread parses an upload.
 */
export function workbookColumns(name: string, data: Uint8Array): UploadColumns | null {
  const workbook = readWorkbook({ name, data });
  if (workbook === null) return null;
  const table = firstSheetTable(workbook);
  if (table === null) return { sheet: workbook.SheetNames[0] ?? '', columns: [], rowCount: 0 };
  return { sheet: table.sheetName, columns: table.headers.filter((header) => header !== ''), rowCount: table.dataRows.length };
}
