import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { columnName, escapeXml } from './sheet-xml.ts';
import { XlsxWriter } from './xlsx-writer.ts';

const read = (bytes: Uint8Array) => XLSX.read(bytes, { type: 'array', cellNF: true, cellStyles: true });

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
