import { CellFormatter } from '#shared/spreadsheet/cell-format.ts';
import { FirstTableFinder } from '#shared/spreadsheet/first-table.ts';
import { numberFormatsHandlers, parseRange, sharedStringsHandlers, type NumberFormats, type RawCell, type RawRow } from '#shared/spreadsheet/sheet-rows.ts';
import { SheetRewriter, type AddedColumn } from '#shared/spreadsheet/sheet-rewrite.ts';
import { SharedStringTable } from '#shared/spreadsheet/shared-strings.ts';
import { xmlFeed, type XmlHandlers } from '#shared/spreadsheet/xml.ts';
import { ZipBuilder, type ByteSink } from '#shared/spreadsheet/zip-builder.ts';
import { readStructure } from '#shared/spreadsheet/xlsx-structure.ts';
import { ZipReader } from '#shared/spreadsheet/zip-reader.ts';
import { drained, finishWorkbook, withTextStyle, type AppendedSheet } from './workbook-parts.ts';

/**
 * An .xlsx rewritten as it streams (issue 19): the first sheet's rows read one by one, each written at
 * once to the output with the columns the robot adds; the other sheets copied made inert; the robot's
 * own sheets appended. The output's bytes go to `sink` as they are made (a robot's RobotOutput: to
 * storage), so this holds the input's compressed bytes and the shared strings (compactly:
 * SharedStringTable), never a sheet. Same table, same cell texts and same output cells as the SheetJS
 * path of workbook.ts (readWorkbook, firstSheetTable, withAddedColumns, writeWorkbook).
 */

export interface StreamedCell {
  /** What the cell shows, trimmed (workbook.ts cellText). */
  text: string;
  /** A number cell (SheetJS type 'n'). */
  number: boolean;
}

export interface StreamedTable {
  sheetName: string;
  /** 0-based sheet row of the header. */
  headerRow: number;
  /** Header text by 0-based sheet column. */
  headers: string[];
}

export interface StreamedRow {
  /** 0-based sheet row. */
  index: number;
  cell(column: number): StreamedCell | undefined;
}

export interface TablePlan {
  /** Columns to add, each right after a sheet column (ascending), with its header. */
  columns: readonly { after: number; header: string }[];
  /** The added cells' texts of a data row, in the order of `columns`. */
  row(row: StreamedRow): readonly string[];
}

export interface StreamOptions {
  /** Where the output .xlsx goes, chunk by chunk; closed by `finish` (left open when there is nothing to write). */
  sink: ByteSink;
  /** Called once the header is known: what to add, or null to write nothing (the run will refuse). */
  plan(table: StreamedTable): TablePlan | null;
  /** Data rows done, out of an estimate that grows honest as the sheet is read. */
  progress(done: number, estimate: number): void;
  stopped(): boolean;
}

export type StreamOutcome =
  | { kind: 'unreadable' }
  | { kind: 'stopped' }
  | { kind: 'empty'; sheetName: string }
  | { kind: 'read'; table: StreamedTable; otherSheets: string[]; dataRows: number; planned: boolean; finish(sheets: readonly AppendedSheet[]): Promise<void> };

class Stop extends Error {}

export async function rewriteWorkbook(data: Uint8Array, options: StreamOptions): Promise<StreamOutcome> {
  let zip: ZipReader;
  let structure: Awaited<ReturnType<typeof readStructure>>;
  try {
    zip = ZipReader.open(data);
    structure = await readStructure(zip);
  } catch {
    return { kind: 'unreadable' };
  }
  const first = structure.sheets[0];
  if (first === undefined || first.path === null) return { kind: 'empty', sheetName: first?.name ?? '' };
  const output = new ZipBuilder(options.sink);

  // Styles: the number formats (cell texts), and the output's copy with a text format added.
  const formats: NumberFormats = { custom: new Map(), styleFormats: [] };
  const stylesText = structure.stylesPath === null ? null : await zip.text(structure.stylesPath);
  if (stylesText !== null) {
    const feed = xmlFeed(numberFormatsHandlers(formats));
    feed.write(stylesText);
    feed.close();
  }
  const { xml: stylesXml, textStyle } = withTextStyle(stylesText);
  output.addFile('xl/styles.xml', stylesXml);
  const formatter = new CellFormatter(formats, structure.date1904);

  // Shared strings: held compactly (cells name them by index), and copied as stored, not deflated again.
  const strings = new SharedStringTable();
  if (structure.sharedStringsPath !== null) {
    await zip.readXml(structure.sharedStringsPath, sharedStringsHandlers((_index, text) => strings.add(text)));
    output.addRaw('xl/sharedStrings.xml', zip.raw(structure.sharedStringsPath));
  }
  const sharedText = (index: number) => strings.text(index);
  const sharedBlank = (index: number) => strings.blank(index);
  const rewriteStyles = { textStyle, sharedLooksLikeFormula: (index: number) => strings.looksLikeFormula(index) };

  // The first sheet: rows held only until the header is known.
  let finder = new FirstTableFinder<RawRow>(null);
  let columnRange: { s: number; e: number } | null = null;
  let declaredRows: number | null = null;
  const held: { row: RawRow; attributes: Readonly<Record<string, string>>; filled: number }[] = [];
  let table: StreamedTable | null = null;
  let plan: TablePlan | null = null;
  let planned = false;
  let dataRows = 0;
  let every = 1;
  let bytesRead = 0;
  const sheetBytes = zip.sizeOf(first.path);
  const estimate = () =>
    Math.max(dataRows, declaredRows !== null && table !== null ? declaredRows - table.headerRow : Math.round((dataRows * sheetBytes) / Math.max(1, bytesRead)));

  const entry = output.openFile('xl/worksheets/sheet1.xml');
  const rewriter = new SheetRewriter(entry, rewriteStyles, (row, attributes) => {
    if (options.stopped()) throw new Stop();
    const cells = columnRange === null ? row.cells : row.cells.filter((cell) => cell.column >= columnRange!.s && cell.column <= columnRange!.e);
    let filled = 0;
    for (const cell of cells) if (!formatter.isBlank(cell, sharedBlank, sharedText)) filled += 1;
    if (table === null) {
      held.push({ row, attributes, filled });
      if (row.empty && columnRange === null) finder.seen();
      else finder.add(row.index, filled, () => row);
      const header = finder.decidedHeader();
      if (header !== null) decide(header.row, header.cells);
      return;
    }
    emit(row, attributes, filled);
  });
  // The declared range bounds the table as SheetJS's !ref does (and gives the progress its total).
  const handlers: XmlHandlers = {
    ...rewriter.handlers,
    open(name, attributes, selfClosing) {
      const range = name === 'dimension' && attributes.ref !== undefined && table === null ? parseRange(attributes.ref) : null;
      if (range !== null) {
        finder = new FirstTableFinder<RawRow>(range.s.r, range.e.r);
        columnRange = { s: range.s.c, e: range.e.c };
        declaredRows = range.e.r;
      }
      rewriter.handlers.open?.(name, attributes, selfClosing);
    },
  };

  const decide = (headerRow: number, header: RawRow) => {
    const width = Math.max(columnRange?.e ?? -1, ...header.cells.map((cell) => cell.column));
    const headers: string[] = [];
    for (let column = 0; column <= width; column += 1) headers.push('');
    for (const cell of header.cells) if (columnRange === null || (cell.column >= columnRange.s && cell.column <= columnRange.e)) headers[cell.column] = formatter.text(cell, sharedText);
    table = { sheetName: first.name, headerRow, headers };
    plan = options.plan(table);
    planned = plan !== null;
    const added: AddedColumn[] = (plan?.columns ?? []).map((column) => ({ after: column.after, width: Math.max(12, column.header.length + 2) }));
    rewriter.start(added);
    every = Math.max(1, Math.ceil(estimate() / 200));
    for (const { row, attributes, filled } of held.splice(0)) emit(row, attributes, filled);
  };

  const emit = (row: RawRow, attributes: Readonly<Record<string, string>>, filled: number) => {
    const current = table!;
    if (row.index === current.headerRow && plan !== null) {
      rewriter.writeRow(row, attributes, plan.columns.map((column) => column.header));
      return;
    }
    const data = row.index > current.headerRow && filled > 0 && finder.inRange(row.index);
    if (!data) {
      rewriter.writeRow(row, attributes, null);
      return;
    }
    dataRows += 1;
    if (plan === null) throw new Stop();
    rewriter.writeRow(row, attributes, plan.row(streamedRow(row, formatter, sharedText)));
    if (dataRows % every === 0) options.progress(dataRows, estimate());
  };

  try {
    await zip.readXml(first.path, handlers, { onBytes: (chunk) => void (bytesRead += chunk.length), afterChunk: () => drained(output) });
  } catch (error) {
    if (error instanceof Stop) {
      if (options.stopped()) return { kind: 'stopped' };
    } else return { kind: 'unreadable' };
  }
  if (table === null) {
    const header = finder.finish();
    if (header.header === null || header.headerRow === null) return { kind: 'empty', sheetName: first.name };
    decide(header.headerRow, header.header);
  }
  const found: StreamedTable = table!;
  const otherSheets = structure.sheets.slice(1).map((sheet) => sheet.name);
  if (!planned) return { kind: 'read', table: found, otherSheets, dataRows, planned, finish: () => Promise.resolve() };
  rewriter.finish();

  return {
    kind: 'read',
    table: found,
    otherSheets,
    dataRows,
    planned,
    finish(sheets) {
      return finishWorkbook(zip, structure, output, rewriteStyles, sheets);
    },
  };
}

function streamedRow(row: RawRow, formatter: CellFormatter, sharedText: (index: number) => string): StreamedRow {
  let byColumn: Map<number, RawCell> | null = null;
  return {
    index: row.index,
    cell(column) {
      byColumn ??= new Map(row.cells.map((cell) => [cell.column, cell]));
      const cell = byColumn.get(column);
      if (cell === undefined) return undefined;
      const number = (cell.type === null || cell.type === 'n') && (cell.value !== undefined || cell.hasFormula);
      return { text: formatter.text(cell, sharedText), number };
    },
  };
}
