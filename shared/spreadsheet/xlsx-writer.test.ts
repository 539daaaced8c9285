import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { cellXml, columnName, DATE_STYLE, escapeXml, excelDay } from './sheet-xml.ts';
import { XlsxWriter } from './xlsx-writer.ts';

const read = (bytes: Uint8Array) => XLSX.read(bytes, { type: 'array', cellNF: true, cellStyles: true });

// shared/ is typed without Node or the DOM: the timer is reached through globalThis.
const later = (globalThis as unknown as { setTimeout: (run: (value?: unknown) => void, ms: number) => unknown }).setTimeout;

describe('XlsxWriter', () => {
  it('writes sheets in order with text, numbers, booleans and gaps, read back by SheetJS as written', () => {
    const book = new XlsxWriter();
    const first = book.addSheet('Incidencias', [14, 8]);
    first.row(['NIF', 'Días', 'Anulado']);
    first.row(['12345678Z', 3, false]);
    first.row([null, 1.5, true, 'después de un hueco']);
    first.end();
    const second = book.addSheet('Errores & avisos');
    second.row(['Archivo']);
    second.end();
    const workbook = read(book.finish());

    expect(workbook.SheetNames).toEqual(['Incidencias', 'Errores & avisos']);
    const rows = XLSX.utils.sheet_to_json(workbook.Sheets['Incidencias']!, { header: 1, raw: true });
    expect(rows).toEqual([['NIF', 'Días', 'Anulado'], ['12345678Z', 3, false], [undefined, 1.5, true, 'después de un hueco']]);
    expect(workbook.Sheets['Incidencias']!['!cols']?.[0]?.width).toBe(14);
    expect(XLSX.utils.sheet_to_json(workbook.Sheets['Errores & avisos']!, { header: 1 })).toEqual([['Archivo']]);
  });

  it('keeps markup, control characters and text that looks like a formula as plain text', () => {
    const book = new XlsxWriter();
    const sheet = book.addSheet('Hoja1');
    const tricky = ['<b>Ana & "Luis"</b>', 'línea\u0001rara', '=cmd|\' /C calc\'!A0', '-5 días', '_x0041_ literal', 'ñandú 😀'];
    sheet.row(tricky);
    sheet.end();
    const cells = read(book.finish()).Sheets['Hoja1']!;
    const values = tricky.map((_, column) => cells[XLSX.utils.encode_cell({ r: 0, c: column })] as XLSX.CellObject);
    expect(values.map((cell) => cell.v)).toEqual(tricky);
    expect(values.every((cell) => cell.t === 's' && cell.f === undefined)).toBe(true);
    // A formula-looking text carries the text format, so editing the cell in Excel keeps it text.
    expect(values[2]!.z).toBe('@');
    expect(values[3]!.z).toBe('@');
    expect(values[0]!.z).not.toBe('@');
  });

  it("writes a 'date' column's numbers as date cells (dd/mm/yyyy), which SheetJS reads back as dates; its text stays text", () => {
    // Excel's own serials: 1 is 1900-01-01, 61 is 1900-03-01 (after the 29 February 1900 Excel counts), 45658 is 2025-01-01.
    expect([excelDay(1900, 1, 1), excelDay(1900, 2, 28), excelDay(1900, 3, 1), excelDay(2025, 1, 1), excelDay(2024, 2, 29)]).toEqual([1, 59, 61, 45_658, 45_351]);
    expect(cellXml(1, 2, 45_658, 'date')).toBe(`<c r="B2" s="${DATE_STYLE}"><v>45658</v></c>`);
    expect(cellXml(1, 2, 45_658)).toBe('<c r="B2"><v>45658</v></c>');

    const book = new XlsxWriter();
    const sheet = book.addSheet('Fechas', [12, 12], [undefined, 'date']);
    sheet.row(['Parte', 'Fecha']);
    sheet.row(['uno', excelDay(2025, 1, 10)]);
    sheet.row(['dos', excelDay(2024, 2, 29)]);
    sheet.row(['tres', null]);
    sheet.end();
    const bytes = book.finish();

    const cells = read(bytes).Sheets['Fechas']!;
    const cell = (address: string) => cells[address] as XLSX.CellObject;
    expect(cell('B1')).toMatchObject({ t: 's', v: 'Fecha' });
    expect(cell('B2')).toMatchObject({ t: 'n', v: 45_667, z: 'dd/mm/yyyy', w: '10/01/2025' });
    expect(cell('B3')).toMatchObject({ t: 'n', v: 45_351, w: '29/02/2024' });
    expect(XLSX.SSF.is_date(cell('B2').z as string)).toBe(true);
    expect(cell('A2')).toMatchObject({ t: 's', v: 'uno' });
    expect(cell('A2').z).not.toBe('dd/mm/yyyy');
    expect(cell('B4')).toBeUndefined();
    // With cellDates a reader gets Date objects: the day the serial names.
    const dated = XLSX.read(bytes, { type: 'array', cellDates: true }).Sheets['Fechas']!;
    const date = (dated['B2'] as XLSX.CellObject).v as Date;
    expect((dated['B2'] as XLSX.CellObject).t).toBe('d');
    expect([date.getFullYear(), date.getMonth() + 1, date.getDate()]).toEqual([2025, 1, 10]);
  });

  it('streams 20,000 rows into a workbook that holds every one of them', () => {
    const book = new XlsxWriter();
    const sheet = book.addSheet('Grande');
    for (let row = 0; row < 20_000; row += 1) sheet.row([`${row}`.padStart(8, '0') + 'Z', row, row % 2 === 0]);
    sheet.end();
    const bytes = book.finish();
    const rows = XLSX.utils.sheet_to_json<unknown[]>(read(bytes).Sheets['Grande']!, { header: 1, raw: true });
    expect(rows).toHaveLength(20_000);
    expect(rows[19_999]).toEqual(["00019999Z", 19_999, false]);
  });

  it('streams a large workbook to its sink in chunks as rows are written, byte for byte the in-memory one, waiting for a slow sink', async () => {
    const write = (book: XlsxWriter) => {
      const sheet = book.addSheet('Grande', [14, 10]);
      return { sheet, row: (row: number) => sheet.row([`${String(row).padStart(8, '0')}Z`, row * 7919 % 100_003, `Trabajador ${row} de la empresa ${row % 97}`]) };
    };
    const ROWS = 100_000;
    const modified = new Date('2026-12-02T10:00:00Z');
    const memory = new XlsxWriter(null, { modified });
    const { sheet: memorySheet, row: memoryRow } = write(memory);
    for (let row = 0; row < ROWS; row += 1) memoryRow(row);
    memorySheet.end();
    const whole = memory.finish();

    const chunks: Uint8Array[] = [];
    let closed = false;
    let chunksBeforeLastRow = 0;
    let mostWaiting = 0;
    const slowSink = {
      async write(chunk: Uint8Array) {
        await new Promise((resolve) => later(resolve, 1));
        chunks.push(chunk);
      },
      close: () => void (closed = true),
    };
    const streamed = new XlsxWriter(slowSink, { modified });
    const { sheet, row: streamedRow } = write(streamed);
    for (let row = 0; row < ROWS; row += 1) {
      streamedRow(row);
      if (streamed.backlogged) await streamed.flushed();
      mostWaiting = Math.max(mostWaiting, (streamed as unknown as { zip: { backlog: number } }).zip.backlog);
    }
    chunksBeforeLastRow = chunks.length;
    sheet.end();
    await streamed.end();

    expect(whole.length).toBeGreaterThan(1_000_000);
    // Handed on while the rows were written, never more than about a megabyte held for the sink.
    expect(chunksBeforeLastRow).toBeGreaterThan(10);
    expect(mostWaiting).toBeLessThan(2 * 1024 * 1024);
    expect(closed).toBe(true);
    const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    chunks.reduce((offset, chunk) => (joined.set(chunk, offset), offset + chunk.length), 0);
    expect(joined.length).toBe(whole.length);
    let differing = 0;
    for (let at = 0; at < whole.length; at += 1) if (joined[at] !== whole[at]) differing += 1;
    expect(differing).toBe(0);
    expect(() => streamed.finish()).toThrow();
  });

  it('fails the writer when its sink fails', async () => {
    const book = new XlsxWriter({ write: () => Promise.reject(new Error('disco lleno')), close: () => undefined });
    const sheet = book.addSheet('Hoja1');
    sheet.row(['x']);
    sheet.end();
    await expect(book.end()).rejects.toThrow('disco lleno');
  });

  it('refuses a second sheet before the first has ended, a repeated name and an empty book', () => {
    const book = new XlsxWriter();
    book.addSheet('Uno');
    expect(() => book.addSheet('Dos')).toThrow('no se ha cerrado');
    expect(() => new XlsxWriter().finish()).toThrow('al menos una hoja');
    const named = new XlsxWriter();
    named.addSheet('Resumen').end();
    expect(() => named.addSheet('RESUMEN')).toThrow('ya existe');
  });
});

describe('sheet XML helpers', () => {
  it('names columns as Excel does', () => {
    expect([0, 25, 26, 27, 701, 702, 16_383].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA', 'XFD']);
  });

  it('escapes the same way on every call (no regex state carried between texts)', () => {
    expect(escapeXml('a<b')).toBe('a&lt;b');
    expect(escapeXml('x<y')).toBe('x&lt;y');
    expect(escapeXml('\u0002\u0002')).toBe('_x0002__x0002_');
    expect(escapeXml('plain')).toBe('plain');
  });
});
