import { readDsvText } from '#shared/spreadsheet/dsv.ts';
import { FirstTableFinder } from './first-table.ts';
import type { SheetColumns } from './sheet-columns.ts';
import { checkTextFile, readTextChunks, type TextEncoding } from './text.ts';

/** CSV uploads read row by row as the robots read them: the loop is shared/spreadsheet/dsv.ts, fed from the file here. */

/** Rows of a CSV as trimmed cells, streamed; `onRow` may throw to stop. */
export async function readCsvRows(path: string, encoding: TextEncoding, onRow: (index: number, cells: string[]) => void): Promise<void> {
  const chunks = readTextChunks(path, encoding);
  try {
    await readDsvText(chunks, (index, fields) => onRow(index, fields.map((field) => field.trim())));
  } finally {
    await chunks.return(undefined);
  }
}

/** The header and data row count of a CSV, as the robots read it; `sheet` is the name they give its sheet. */
export async function inspectCsv(path: string, sheet: string): Promise<SheetColumns> {
  const encoding = await checkTextFile(path, 'un CSV');
  const finder = new FirstTableFinder<string[]>(0);
  await readCsvRows(path, encoding, (index, cells) => {
    let filled = 0;
    for (const cell of cells) if (cell !== '') filled += 1;
    finder.add(index, filled, () => cells);
  });
  const table = finder.finish();
  return { sheet, columns: (table.header ?? []).filter((cell) => cell !== ''), rowCount: table.dataRows };
}
