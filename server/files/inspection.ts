import { readFile } from 'node:fs/promises';
import * as XLSX from 'xlsx';
import { baseName } from '../../resources/flows/_lib/text.ts';
import { sheetNameFor } from '../../resources/flows/_lib/workbook.ts';
import { workbookColumns } from '../modules/storage/workbook.ts';
import { inspectCsv } from './csv.ts';
import { capExceeded, formatCount, unreadable, wrongType } from './errors.ts';
import { countFieEntries, fieHeaderOf, FIE_HEADER_SEARCH_BYTES } from './fie.ts';
import { inspectXlsx } from './inspect-xlsx.ts';
import { MAX_DATA_ROWS } from './limits.ts';
import { describeType } from './sniff.ts';
import { checkTextFile } from './text.ts';
import { DecompressionBudget, decompressedTooLarge, withZip } from './zip.ts';
import type { SheetColumns } from './sheet-columns.ts';
import { readStart } from './read-start.ts';

export type { SheetColumns } from './sheet-columns.ts';

/** What an upload was found to be, stored with it (stored_files.detected_type, sheet_name, columns, row_count, entry_count). */
export interface Inspection {
  /** The type its content is: 'xlsx', 'xls', 'ods', 'csv', 'fie', 'txt', 'pdf', 'png'… */
  detectedType: string;
  /** Workbooks and CSV files. */
  sheet: SheetColumns | null;
  /** FIE files: their entries (partes). */
  entryCount: number | null;
}

const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';


function checkRows(columns: SheetColumns): SheetColumns {
  if (columns.rowCount > MAX_DATA_ROWS) {
    throw capExceeded(`El archivo tiene más de ${formatCount(MAX_DATA_ROWS)} filas, el máximo que se lee. Divídelo en archivos más pequeños.`);
  }
  return columns;
}

/** A whole .xls or .ods read by SheetJS, as the robots read it; the caller has bounded what it unfolds to. */
function sheetJsColumns(name: string, data: Uint8Array, type: string): SheetColumns {
  const columns = workbookColumns(name, data);
  if (columns === null) throw unreadable(`No se puede leer como ${describeType(type)}: está dañado o protegido con contraseña`);
  return checkRows(columns);
}

async function inspectXls(path: string, name: string): Promise<SheetColumns> {
  const data = await readFile(path);
  if (data[0] === 0xd0) {
    // An OLE2 file is an Excel workbook when it holds a Workbook (BIFF8) or Book (BIFF5) stream; a .doc has neither.
    let streams: string[];
    try {
      streams = XLSX.CFB.read(data, { type: 'buffer' }).FullPaths.map((path: string) => path.replace(/\/$/, '').split('/').pop()?.toLowerCase() ?? '');
    } catch (error) {
      throw unreadable(`No se puede leer como ${describeType('xls')}: ${(error as Error).message}`);
    }
    if (streams.includes('encryptedpackage')) throw unreadable(`«${name}» está protegido con contraseña`);
    if (!streams.includes('workbook') && !streams.includes('book')) throw wrongType(`No es ${describeType('xls')}: es otro documento de Office`);
  }
  return sheetJsColumns(name, data, 'xls');
}

async function inspectOds(path: string, name: string, budget: DecompressionBudget): Promise<SheetColumns> {
  await withZip(path, { budget }, async (zip) => {
    const mimetype = zip.has('mimetype') ? (await zip.readText('mimetype', 200)).trim() : '';
    if (mimetype !== ODS_MIMETYPE) throw wrongType(`No es ${describeType('ods')}: ${mimetype === '' ? 'le falta la entrada mimetype' : `es de tipo ${mimetype}`}`);
    if (!zip.has('content.xml')) throw unreadable(`No se puede leer como ${describeType('ods')}: le falta content.xml`);
    if (zip.declaredSize() > budget.limit) throw decompressedTooLarge(budget.limit);
    // Every entry inflated once through the budget: none unfolds past the size it declares, so
    // SheetJS below holds no more than that.
    for (const entryName of zip.entries.keys()) {
      if (entryName.endsWith('/')) continue;
      for await (const chunk of await zip.stream(entryName)) void chunk;
    }
  });
  return sheetJsColumns(name, await readFile(path), 'ods');
}

async function inspectText(path: string, type: string): Promise<Inspection> {
  await checkTextFile(path, describeType(type));
  const header = fieHeaderOf(await readStart(path, FIE_HEADER_SEARCH_BYTES));
  if (header.fie) return { detectedType: 'fie', sheet: null, entryCount: await countFieEntries(path) };
  if (type === 'fie') throw wrongType(`No es ${describeType('fie')}: ${header.reason}`);
  return { detectedType: type, sheet: null, entryCount: null };
}

/**
 * Reads a stored upload of a workbook or text type to find what it holds. Throws a FileRefusal when
 * it is over a cap, unreadable, or not what its type says. Runs in the inspection's child process
 * (inspect-child.ts), never on the server's event loop.
 */
export async function inspectStoredFile(path: string, name: string, type: string, budget = new DecompressionBudget()): Promise<Inspection> {
  switch (type) {
    case 'xlsx':
      return { detectedType: 'xlsx', sheet: checkRows(await inspectXlsx(path, budget)), entryCount: null };
    case 'xls':
      return { detectedType: 'xls', sheet: await inspectXls(path, name), entryCount: null };
    case 'ods':
      return { detectedType: 'ods', sheet: await inspectOds(path, name, budget), entryCount: null };
    case 'csv':
      return { detectedType: 'csv', sheet: await inspectCsv(path, sheetNameFor(baseName(name))), entryCount: null };
    case 'txt':
    case 'msj':
    case 'fie':
      return inspectText(path, type);
    default:
      throw new Error(`tipo sin inspección: ${type}`);
  }
}
