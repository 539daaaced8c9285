import * as XLSX from 'xlsx';
import { A3_ACCEPTED, A3_ANSWER_COLUMNS, A3_ANSWER_SHEET, A3_IT_COLUMNS, A3_IT_SHEET, A3_REFUSED, type A3AnswerRow, type A3ItRow } from './it-rows.ts';

/**
 * The IT import and answer workbooks read and written with SheetJS. Imported lazily by import.ts, so the
 * spreadsheet library is a chunk of its own in the desktop build, loaded on the first A3 sync.
 */

export function writeItWorkbook(rows: readonly A3ItRow[]): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([[...A3_IT_COLUMNS], ...rows.map((row) => A3_IT_COLUMNS.map((column) => row[column]))]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, A3_IT_SHEET);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** The rows of an IT import workbook (the importer's side); a missing column reads as ''. */
export function readItWorkbook(bytes: Uint8Array): A3ItRow[] {
  return sheetRows(bytes, A3_IT_SHEET).map((row) => Object.fromEntries(A3_IT_COLUMNS.map((column) => [column, row[column] ?? ''])) as A3ItRow);
}

export function writeAnswerWorkbook(rows: readonly A3AnswerRow[]): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([[...A3_ANSWER_COLUMNS], ...rows.map((row) => [row.reference, row.accepted ? A3_ACCEPTED : A3_REFUSED, row.message])]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, A3_ANSWER_SHEET);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** Throws a Spanish Error when it is not an answer workbook. */
export function readAnswerWorkbook(bytes: Uint8Array): A3AnswerRow[] {
  return sheetRows(bytes, A3_ANSWER_SHEET).map((row) => {
    const state = (row.Estado ?? '').trim();
    if (state !== A3_ACCEPTED && state !== A3_REFUSED) throw new Error(`La respuesta de A3 tiene un estado desconocido: «${state.slice(0, 40)}».`);
    return { reference: (row.Referencia ?? '').trim(), accepted: state === A3_ACCEPTED, message: (row.Mensaje ?? '').trim() };
  });
}

function sheetRows(bytes: Uint8Array, sheetName: string): Record<string, string>[] {
  const book = XLSX.read(bytes, { type: 'buffer', cellDates: false });
  const sheet = book.Sheets[sheetName];
  if (!sheet) throw new Error(`El libro no tiene la hoja «${sheetName}».`);
  return XLSX.utils.sheet_to_json<Record<string, string>>(sheet, { raw: false, defval: '' });
}
