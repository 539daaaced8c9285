/** The first sheet's name, its header's non-empty cells in order, and its data rows (ColumnMapping, the estimate). */
export interface SheetColumns {
  sheet: string;
  columns: string[];
  rowCount: number;
}
