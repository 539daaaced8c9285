/**
 * The first sheet's table found row by row, as resources/flows/_lib/workbook.ts firstSheetTable finds
 * it in a whole SheetJS sheet (headerRowOf): the header is the first row with two or more filled cells
 * among the first HEADER_SEARCH_ROWS rows of the sheet's range; else the first row with one; else the
 * first filled row after them. Every filled row below the header is a data row. Only the cells of the
 * candidate header rows are kept, so a sheet of any length is counted in constant memory.
 */

/** As in resources/flows/_lib/workbook.ts: past a title and a blank line or two, not into the data. */
export const HEADER_SEARCH_ROWS = 10;

export interface FirstTable<C> {
  /** The header row's cells, or null for a sheet with no filled row. */
  header: C | null;
  /** 0-based sheet row of the header. */
  headerRow: number | null;
  dataRows: number;
}

/** Caps on what is read (the server's upload limits); `refusal` is thrown past either. */
export interface RowLimits {
  sheetRows: number;
  dataRows: number;
  refusal(): Error;
}

export class FirstTableFinder<C> {
  private windowStart: number | null;
  private header: { row: number; cells: C } | null = null;
  /** The window's first row with one filled cell, the header if no row has two. */
  private single: { row: number; cells: C } | null = null;
  /** Filled rows of the window after `single` (data rows if it becomes the header). */
  private afterSingle = 0;
  private windowClosed = false;
  private dataRows = 0;
  private rowsSeen = 0;

  /**
   * @param firstRow the range's first row when the sheet declares it (an .xlsx dimension; 0 for a CSV);
   *   null: the first row seen.
   * @param lastRow the range's last row when declared; rows past it are not part of the sheet's table.
   */
  constructor(
    firstRow: number | null,
    private readonly lastRow: number | null = null,
    private readonly limits: RowLimits | null = null,
  ) {
    this.windowStart = firstRow;
  }

  /** Whether a row is inside the declared range (rows outside it are not the table's). */
  inRange(row: number): boolean {
    return !(this.windowStart !== null && row < this.windowStart) && !(this.lastRow !== null && row > this.lastRow);
  }

  /**
   * One row, in sheet order. `filled`: its cells with text in the range; `cells` is called only for a
   * row that may become the header.
   */
  add(row: number, filled: number, cells: () => C): void {
    this.seen();
    this.windowStart ??= row;
    if (!this.inRange(row)) return;

    if (this.header !== null) {
      if (filled > 0) this.countData();
      return;
    }
    const inWindow = row < this.windowStart + HEADER_SEARCH_ROWS;
    if (inWindow) {
      if (filled >= 2) {
        this.header = { row, cells: cells() };
        return;
      }
      if (filled === 1) {
        if (this.single === null) this.single = { row, cells: cells() };
        else this.afterSingle += 1;
      }
      return;
    }
    this.closeWindow();
    if (this.header !== null) {
      if (filled > 0) this.countData();
    } else if (filled > 0) {
      this.header = { row, cells: cells() };
    }
  }

  /**
   * The header once no later row can change it (a streaming reader holds the rows read until then):
   * a row of two filled cells in the window, or the window's single-cell row once a row past the
   * window has been added. Null while undecided.
   */
  decidedHeader(): { row: number; cells: C } | null {
    return this.header;
  }

  /** A row read, whether or not it is part of the table: blank rows cost reading time too. */
  seen(): void {
    this.rowsSeen += 1;
    if (this.limits !== null && this.rowsSeen > this.limits.sheetRows) throw this.limits.refusal();
  }

  /** The window is over with no row of two filled cells: its first single-cell row is the header. */
  private closeWindow(): void {
    if (this.windowClosed) return;
    this.windowClosed = true;
    if (this.header === null && this.single !== null) {
      this.header = this.single;
      for (let row = 0; row < this.afterSingle; row += 1) this.countData();
    }
  }

  private countData(): void {
    this.dataRows += 1;
    if (this.limits !== null && this.dataRows > this.limits.dataRows) throw this.limits.refusal();
  }

  finish(): FirstTable<C> {
    this.closeWindow();
    return { header: this.header?.cells ?? null, headerRow: this.header?.row ?? null, dataRows: this.dataRows };
  }
}
