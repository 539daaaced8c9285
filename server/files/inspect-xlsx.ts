import { decompressedTooLarge, withZip, type DecompressionBudget } from './zip.ts';
import { CellFormatter } from '#shared/spreadsheet/cell-format.ts';
import { FirstTableFinder } from './first-table.ts';
import type { SheetColumns } from './sheet-columns.ts';
import { missingSharedString, readNumberFormats, readSharedStrings, readSheetRows, readXlsxStructure, type CellRange, type RawCell } from './xlsx.ts';
import { StopXml } from './xml.ts';

/**
 * The first sheet's header and data row count of an .xlsx, streamed: the zip from its central
 * directory, the sheet XML row by row, never held. Same answer as SheetJS read whole through
 * resources/flows/_lib/workbook.ts (readWorkbook + firstSheetTable), for the robots read it that way.
 *
 * Three passes over the parts it needs: the shared strings once for a bitmap of which are blank (a
 * row is data when any cell shows something), the sheet once, and the shared strings again up to the
 * last one the header uses.
 */
export async function inspectXlsx(path: string, budget: DecompressionBudget): Promise<SheetColumns> {
  return withZip(path, { budget }, async (zip) => {
    const structure = await readXlsxStructure(zip);
    if (zip.declaredSize() > budget.limit) throw decompressedTooLarge(budget.limit);
    const first = structure.sheets[0];
    if (first === undefined) return { sheet: '', columns: [], rowCount: 0 };
    if (first.path === null) return { sheet: first.name, columns: [], rowCount: 0 };

    const formatter = new CellFormatter(await readNumberFormats(zip, structure.stylesPath), structure.date1904);

    // Pass 1: which shared strings are blank (one bit each).
    let blank = new Uint8Array(0);
    let stringCount = 0;
    if (structure.sharedStringsPath !== null) {
      let bits = new Uint8Array(1024);
      stringCount = await readSharedStrings(zip, structure.sharedStringsPath, (index, text) => {
        if (index >> 3 >= bits.length) {
          const grown = new Uint8Array(bits.length * 2);
          grown.set(bits);
          bits = grown;
        }
        if (text.trim() === '') bits[index >> 3] = (bits[index >> 3] ?? 0) | (1 << (index & 7));
      });
      blank = bits;
    }
    const checkIndex = (index: number) => {
      if (!Number.isInteger(index) || index < 0 || index >= stringCount) throw missingSharedString(index);
    };
    const sharedBlank = (index: number) => {
      checkIndex(index);
      return ((blank[index >> 3] ?? 0) & (1 << (index & 7))) !== 0;
    };
    // During the sheet pass the text is not at hand: an 'exact' format on a shared string is rare, and
    // such a cell counts as filled unless its string is blank.
    const noText = (index: number) => {
      checkIndex(index);
      return sharedBlank(index) ? '' : '\u0000';
    };

    // Pass 2: the sheet.
    let range: CellRange | null = null;
    let finder = new FirstTableFinder<RawCell[]>(null);
    await readSheetRows(zip, first.path, {
      dimension(declared) {
        range = declared;
        finder = new FirstTableFinder<RawCell[]>(declared?.s.r ?? null, declared?.e.r ?? null);
      },
      row(row) {
        const declared: CellRange | null = range;
        const inRange = declared === null ? row.cells : row.cells.filter((cell) => cell.column >= declared.s.c && cell.column <= declared.e.c);
        let filled = 0;
        for (const cell of inRange) if (!formatter.isBlank(cell, sharedBlank, noText)) filled += 1;
        // A self-closing <row/> with no cells is not a row SheetJS counts for its range guess.
        if (row.empty && declared === null) return finder.seen();
        finder.add(row.index, filled, () => inRange);
      },
    });
    const table = finder.finish();
    if (table.header === null) return { sheet: first.name, columns: [], rowCount: 0 };

    // Pass 3: the header's shared strings, and nothing past the last of them.
    const headerCells = [...new Map(table.header.map((cell) => [cell.column, cell])).values()].sort((a, b) => a.column - b.column);
    const wanted = new Set(headerCells.filter((cell) => cell.type === 's' && cell.value !== undefined).map((cell) => Number.parseInt(cell.value ?? '', 10)));
    const texts = new Map<number, string>();
    if (wanted.size > 0 && structure.sharedStringsPath !== null) {
      const last = Math.max(...wanted);
      await readSharedStrings(zip, structure.sharedStringsPath, (index, text) => {
        if (wanted.has(index)) texts.set(index, text);
        if (index >= last) throw new StopXml();
      });
    }
    const sharedText = (index: number) => {
      checkIndex(index);
      return texts.get(index) ?? '';
    };
    const columns = headerCells.map((cell) => formatter.text(cell, sharedText)).filter((text) => text !== '');
    return { sheet: first.name, columns, rowCount: table.dataRows };
  });
}
