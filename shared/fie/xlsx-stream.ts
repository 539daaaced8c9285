import { sharedStringsHandlers, sheetRowsHandlers, type CellRange, type RawCell, type RawRow } from '../spreadsheet/sheet-rows.ts';
import { isZip } from '../files/magic.ts';
import { readStructure, type Structure } from '../spreadsheet/xlsx-structure.ts';
import { decodeOoxmlText, StopXml } from '../spreadsheet/xml.ts';
import { ZipReader } from '../spreadsheet/zip-reader.ts';
import { RegistryDates } from './registry-date.ts';
import { columnsOf, HEADER_SEARCH_ROWS, NO_FIE_HEADER, rowEntry, UNREADABLE_SPREADSHEET, type SheetCell } from './spreadsheet.ts';
import type { FieDiagnostic, FieEntry, FieFieldDef } from './types.ts';

/*
 * A FIE saved as an .xlsx, read row by row (issue 19): a year's export of 100,000 partes is an 18 MB
 * workbook that SheetJS, holding every cell, could not read in a 1 GB heap. The sheet's XML is inflated
 * and parsed as it goes (ZipReader + saxes, as the streaming robots read their workbooks), each row
 * under the header becomes its entry at once, and nothing but the shared strings and the compressed
 * bytes is held.
 *
 * What comes out is what decodeFieSpreadsheet (SheetJS, sheet_to_json with raw values) gives for the
 * same file: the sheets in workbook order, the first with a header among the first rows of its range
 * (the <dimension>, else the rows that have cells), the cells inside that range, raw values as SheetJS
 * types them (shared and inline strings, numbers, booleans; errors and empty cells null), each row's
 * entry and its bad values with the row's number, and the registration date over all the entries.
 * Legacy .xls, SpreadsheetML and .xlsb are not streamed: streamFieXlsx answers null and the caller
 * reads them with SheetJS. So does a file this reader stumbles on before any entry has gone out: saxes
 * refuses XML that SheetJS's regexes read (a raw control character in a string from some exporter),
 * and SheetJS drops a sheet it cannot read and goes on to the next.
 */

export interface FieSheetSink {
  entry(entry: FieEntry): void;
  diagnostic(diagnostic: FieDiagnostic): void;
}

/** Everything the document says besides its entries and diagnostics (as FieStreamSummary for text). */
export interface FieSheetSummary {
  format: 'spreadsheet';
  version: null;
  ignored: boolean;
  /** Why the file was ignored, in Spanish. */
  reason?: string;
  registryDate: string | null;
  entries: number;
  diagnostics: number;
}

/** A sheet that broke after some of its entries had gone out: the file cannot be read whole. */
export class FieSpreadsheetDamaged extends Error {
  constructor(
    message: string,
    /** What had gone to the sink before the break. */
    readonly entries: number,
    readonly diagnostics: number,
  ) {
    super(message);
  }
}

/** What the sink or `drain` threw, carried through the parser so that it is not taken for damage. */
class ConsumerFailure {
  constructor(readonly error: unknown) {}
}

function consumed<A extends unknown[], R>(step: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return step(...args);
    } catch (error) {
      throw new ConsumerFailure(error);
    }
  };
}

/** A cell's value as SheetJS's sheet_to_json gives it with raw values and null for the empty ones. */
function rawValue(cell: RawCell, strings: readonly string[]): SheetCell {
  switch (cell.type) {
    case 's': {
      if (cell.value === undefined) return null;
      const text = strings[Number.parseInt(cell.value, 10)];
      // SheetJS drops the sheet (and reads the next one): before any entry, so does the fallback.
      if (text === undefined) throw new Error(`Falta el texto compartido n.º ${cell.value}`);
      return text;
    }
    case 'str':
      return decodeOoxmlText(cell.value ?? '');
    case 'inlineStr':
      return decodeOoxmlText(cell.inlineText ?? '');
    case 'b':
      return cell.value === '1' || cell.value === 'true';
    case 'e':
      return null;
    case 'd':
      // An ISO date written as such (Excel does not): SheetJS makes it a serial day; kept as its text,
      // which a date field reads as the same day.
      return cell.value ?? null;
    default:
      // A number; a formula without a cached value is empty to sheet_to_json.
      return cell.value === undefined ? null : Number.parseFloat(cell.value);
  }
}

class SheetReader {
  private range: CellRange | null = null;
  private firstRow: number | null = null;
  private columns: ReadonlyMap<number, FieFieldDef> | null = null;
  private readonly diagnostics: FieDiagnostic[] = [];

  constructor(
    private readonly strings: readonly string[],
    /** A row under the header: its entry (null when no field is informed) and its bad values. */
    private readonly onRow: (entry: FieEntry | null, diagnostics: readonly FieDiagnostic[]) => void,
    private readonly stopped: () => boolean,
  ) {}

  /** Whether a header row was found: the sheet's rows below it were the document's entries. */
  get found(): boolean {
    return this.columns !== null;
  }

  dimension(range: CellRange | null): void {
    this.range = range;
    if (range !== null) this.firstRow = range.s.r;
  }

  row(row: RawRow): void {
    if (this.stopped()) throw new StopXml();
    // Without a <dimension>, SheetJS's range starts at the first row written with content.
    if (this.firstRow === null) {
      if (row.empty) return;
      this.firstRow = row.index;
    }
    if (row.index < this.firstRow) return;
    if (this.range !== null && row.index > this.range.e.r) throw new StopXml();
    const values = this.values(row);
    if (this.columns === null) {
      if (row.index >= this.firstRow + HEADER_SEARCH_ROWS) throw new StopXml();
      this.columns = columnsOf(values);
      return;
    }
    this.diagnostics.length = 0;
    this.onRow(rowEntry((column) => values[column] ?? null, this.columns, row.index + 1, this.diagnostics), this.diagnostics);
  }

  /** The row's raw values by column, the cells outside the range left out. */
  private values(row: RawRow): SheetCell[] {
    const values: SheetCell[] = [];
    const columns = this.range;
    for (const cell of row.cells) {
      if (columns !== null && (cell.column < columns.s.c || cell.column > columns.e.c)) continue;
      values[cell.column] = rawValue(cell, this.strings);
    }
    return values;
  }
}

/**
 * Decodes an .xlsx FIE into the sink as its rows are read. Null when the bytes are not a SpreadsheetML
 * package or do not read before the first entry (read those with decodeFieSpreadsheet). Options:
 * `stopped` is asked before each row (a stopped read answers with what was read so far); `drain` is
 * awaited after each 64 KiB of the sheet's compressed bytes, for a sink that hands entries on
 * asynchronously to catch up. Throws FieSpreadsheetDamaged when the file breaks after entries have
 * gone out; what the sink or `drain` throws comes out as it was thrown.
 */
export async function streamFieXlsx(data: Uint8Array, sink: FieSheetSink, options: { stopped?: () => boolean; drain?: () => Promise<void> } = {}): Promise<FieSheetSummary | null> {
  if (!isZip(data)) return null;
  let zip: ZipReader;
  let structure: Structure;
  try {
    zip = ZipReader.open(data);
    structure = await readStructure(zip);
  } catch {
    return null;
  }
  const stopped = options.stopped ?? (() => false);
  const dates = new RegistryDates();
  let entries = 0;
  let diagnostics = 0;
  const ignored = (reason: string): FieSheetSummary => ({ format: 'spreadsheet', version: null, ignored: true, reason, registryDate: null, entries: 0, diagnostics: 0 });
  const { drain: given } = options;
  const drain =
    given &&
    (async () => {
      try {
        await given();
      } catch (error) {
        throw new ConsumerFailure(error);
      }
    });

  const strings: string[] = [];
  try {
    if (structure.sharedStringsPath !== null) await zip.readXml(structure.sharedStringsPath, sharedStringsHandlers((_index, text) => strings.push(text)));
  } catch {
    return null;
  }

  let readable = false;
  for (const sheet of structure.sheets) {
    if (sheet.path === null) continue;
    const reader = new SheetReader(
      strings,
      consumed((entry: FieEntry | null, found: readonly FieDiagnostic[]) => {
        for (const diagnostic of found) {
          diagnostics += 1;
          sink.diagnostic(diagnostic);
        }
        if (entry === null) return;
        entries += 1;
        dates.add(entry.fields);
        sink.entry(entry);
      }),
      consumed(stopped),
    );
    try {
      const handlers = sheetRowsHandlers({ dimension: (range) => reader.dimension(range), row: (row) => reader.row(row) });
      await zip.readXml(sheet.path, handlers, drain === undefined ? {} : { afterChunk: drain });
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error.error;
      if (entries > 0 || diagnostics > 0) throw new FieSpreadsheetDamaged(`La hoja «${sheet.name}» está dañada: ${error instanceof Error ? error.message : String(error)}`, entries, diagnostics);
      return null;
    }
    readable = true;
    if (reader.found) return { format: 'spreadsheet', version: null, ignored: false, registryDate: dates.text(), entries, diagnostics };
  }
  return ignored(readable ? NO_FIE_HEADER : UNREADABLE_SPREADSHEET);
}
