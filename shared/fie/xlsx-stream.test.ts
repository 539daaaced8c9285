import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { sampleFieSheetRows, sampleFieWorkbook } from './sample-workbook.ts';
import { decodeFieSpreadsheet, NO_FIE_HEADER, UNREADABLE_SPREADSHEET } from './spreadsheet.ts';
import type { FieDiagnostic, FieDocument, FieEntry } from './types.ts';
import { FieSpreadsheetDamaged, streamFieXlsx } from './xlsx-stream.ts';

/** The streamed read gathered into a FieDocument, to compare with decodeFieSpreadsheet's. */
async function streamed(bytes: Uint8Array, stopped?: () => boolean): Promise<FieDocument | null> {
  const entries: FieEntry[] = [];
  const diagnostics: FieDiagnostic[] = [];
  const summary = await streamFieXlsx(bytes, { entry: (entry) => entries.push(entry), diagnostic: (diagnostic) => diagnostics.push(diagnostic) }, { stopped });
  if (summary === null) return null;
  expect(summary.entries).toBe(entries.length);
  expect(summary.diagnostics).toBe(diagnostics.length);
  const { format, version, ignored, reason, registryDate } = summary;
  return { format, version, ignored, ...(reason !== undefined && { reason }), registryDate, entries, diagnostics };
}

/** A workbook written by SheetJS, as Excel would hold it: a dimension, and shared strings with bookSST. */
function sheetJsWorkbook(sheets: Record<string, unknown[][]>, options: { sharedStrings?: boolean; cellDates?: boolean } = {}): Uint8Array {
  const workbook = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows, { cellDates: options.cellDates ?? false, UTC: true }), name);
  return new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx', bookSST: options.sharedStrings ?? true }) as ArrayBuffer);
}

/** The same package with one part's text changed (a hand-made quirk SheetJS's writer never makes). */
function withPart(bytes: Uint8Array, path: string, change: (xml: string) => string): Uint8Array {
  const files = unzipSync(bytes);
  const part = files[path];
  if (part === undefined) throw new Error(`no part ${path}`);
  files[path] = strToU8(change(strFromU8(part)));
  return zipSync(files);
}

const ROWS: unknown[][] = [
  ['Fichero INSS Empresas'],
  [100, '310', '320', '670', '1020 Fecha de baja', '1090', '1150', 'Columna ajena'],
  [20250115, '28123456789', 111, '0000012345678Z', 20250110, 1, '', 'x'],
  [],
  ['20250116', '08123456789', '0111', 'X1234567L', '12/01/2025', 3, '2025-01-13', 'y'],
  [20250117, '08123456789', '0111', '12345678Z', 'mañana', true, null, 'z'],
];

describe('streamFieXlsx', () => {
  it('gives what decodeFieSpreadsheet gives: title row, header by code and label, blank rows, typed cells, a bad value with its row', async () => {
    for (const sharedStrings of [true, false]) {
      const bytes = sheetJsWorkbook({ FIE: ROWS }, { sharedStrings });
      const document = await streamed(bytes);
      expect(document).toEqual(decodeFieSpreadsheet(bytes));
      expect(document?.entries).toHaveLength(3);
      expect(document?.diagnostics).toContainEqual({ kind: 'invalid-value', line: 6, detail: "Valor no válido en 1020 (Fecha de baja): 'mañana'" });
    }
  });

  it('reads date cells (Excel serial days) as their day', async () => {
    const bytes = sheetJsWorkbook({ FIE: [['670', '1020'], ['12345678Z', new Date(Date.UTC(2025, 0, 10))]] }, { cellDates: true });
    const document = await streamed(bytes);
    expect(document).toEqual(decodeFieSpreadsheet(bytes));
    expect(document?.entries[0]?.fields[1020]?.normalizedValue).toBe('2025-01-10');
  });

  it('takes the first sheet with a header, and says so when none has one', async () => {
    const twoSheets = sheetJsWorkbook({ Notas: [['Nombre del cliente', 'Importe'], ['ACME', 12]], FIE: ROWS });
    expect(await streamed(twoSheets)).toEqual(decodeFieSpreadsheet(twoSheets));
    expect((await streamed(twoSheets))?.entries).toHaveLength(3);

    const none = sheetJsWorkbook({ Notas: [['Nombre del cliente', 'Importe'], ['ACME', 12]] });
    expect(await streamed(none)).toEqual(decodeFieSpreadsheet(none));
    expect(await streamed(none)).toMatchObject({ ignored: true, reason: NO_FIE_HEADER, entries: [] });
  });

  it('looks for the header only among the first 10 rows of the range', async () => {
    const late = sheetJsWorkbook({ FIE: [...Array.from({ length: 10 }, () => ['nota']), ['670', '1020'], ['12345678Z', 20250110]] });
    expect(await streamed(late)).toEqual(decodeFieSpreadsheet(late));
    expect(await streamed(late)).toMatchObject({ ignored: true, reason: NO_FIE_HEADER });
  });

  it('keeps to the declared range: cells and rows outside the <dimension> are not read', async () => {
    const bytes = withPart(sheetJsWorkbook({ FIE: ROWS }), 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/<dimension ref="[^"]+"\/>/, '<dimension ref="B2:G5"/>'));
    const document = await streamed(bytes);
    expect(document).toEqual(decodeFieSpreadsheet(bytes));
    // Column A (field 100) and row 6 are outside B2:G5.
    expect(document?.entries).toHaveLength(2);
    expect(document?.entries[0]?.fields[100]).toBeUndefined();
  });

  it('without a <dimension>, starts at the first row with content, as SheetJS guesses the range', async () => {
    const bytes = withPart(sheetJsWorkbook({ FIE: [[], [], ...ROWS] }), 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/<dimension ref="[^"]+"\/>/, ''));
    expect(await streamed(bytes)).toEqual(decodeFieSpreadsheet(bytes));
  });

  it('reads error cells as empty and formulas by their cached value', async () => {
    const bytes = withPart(sheetJsWorkbook({ FIE: [['670', '1090', '1020'], ['12345678Z', 1, 20250110]] }), 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/<c r="B2"[^>]*>.*?<\/c>/, '<c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c>').replace(/<c r="C2"[^>]*>.*?<\/c>/, '<c r="C2"><f>DATE(2025,1,10)</f><v>20250110</v></c>'),
    );
    const document = await streamed(bytes);
    expect(document).toEqual(decodeFieSpreadsheet(bytes));
    expect(document?.entries[0]?.fields[1090]).toBeUndefined();
    expect(document?.entries[0]?.fields[1020]?.normalizedValue).toBe('2025-01-10');
  });

  it('gives the same 10,000 entries as SheetJS for an export written row by row (inline strings, numbers, no dimension)', async () => {
    const bytes = sampleFieWorkbook(10_000);
    const document = await streamed(bytes);
    const whole = decodeFieSpreadsheet(bytes);
    expect(document?.entries).toHaveLength(10_000);
    // As text: toEqual walks 10,000 entries of 40 fields several times slower.
    expect(JSON.stringify(document)).toBe(JSON.stringify(whole));
    expect(document?.registryDate).toBe('15/01/2025 • 15/12/2025');
  });

  it('gives the same entries as SheetJS for the same rows written by SheetJS with shared strings', async () => {
    const bytes = sheetJsWorkbook({ Partes: [...sampleFieSheetRows(3_000)] });
    expect(await streamed(bytes)).toEqual(decodeFieSpreadsheet(bytes));
  });

  it('answers null for what it does not stream (not a zip, a damaged zip, a zip without a workbook)', async () => {
    expect(await streamed(strToU8('<?xml version="1.0"?><Workbook/>'))).toBeNull();
    expect(await streamed(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toBeNull();
    expect(await streamed(zipSync({ 'content.xml': strToU8('<office:document/>') }))).toBeNull();
  });

  it('leaves to SheetJS a file it stumbles on before any entry: a missing shared string, a control character saxes refuses', async () => {
    const missing = withPart(sheetJsWorkbook({ FIE: [['670', '1020'], ['12345678Z', 'x']] }), 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/(<c r="B2"[^>]*t="s"[^>]*><v>)\d+/, '$1999'));
    expect(decodeFieSpreadsheet(missing)).toMatchObject({ ignored: true, reason: UNREADABLE_SPREADSHEET });
    expect(await streamed(missing)).toBeNull();
    // Some exporters write a raw control character in a string; SheetJS's regexes read past it.
    const control = withPart(sheetJsWorkbook({ FIE: [['670', '840'], ['12345678Z', 'ANA']] }, { sharedStrings: false }), 'xl/worksheets/sheet1.xml', (xml) => xml.replace('ANA', 'AN\u0001A'));
    expect(decodeFieSpreadsheet(control).entries).toHaveLength(1);
    expect(await streamed(control)).toBeNull();
  });

  it('lets what the sink throws out as it was thrown, not as damage', async () => {
    const failure = new Error('el destino se ha cerrado');
    const reading = streamFieXlsx(sampleFieWorkbook(50), { entry() { throw failure; }, diagnostic() {} });
    await expect(reading).rejects.toBe(failure);
    const draining = streamFieXlsx(sampleFieWorkbook(50), { entry() {}, diagnostic() {} }, { drain: () => Promise.reject(failure) });
    await expect(draining).rejects.toBe(failure);
  });

  it('fails, rather than pass for whole, a sheet that breaks after entries have gone out', async () => {
    const bytes = withPart(sampleFieWorkbook(50), 'xl/worksheets/sheet1.xml', (xml) => xml.replace('<row r="30"', '<row r="30" <broken'));
    const reading = streamFieXlsx(bytes, { entry() {}, diagnostic() {} });
    await expect(reading).rejects.toBeInstanceOf(FieSpreadsheetDamaged);
    // Rows 3 to 29 had gone out (title and header above).
    await expect(reading).rejects.toMatchObject({ entries: 27, diagnostics: 0 });
  });

  it('stops between rows when asked', async () => {
    let asked = 0;
    const document = await streamed(sampleFieWorkbook(500), () => ++asked > 100);
    expect(document?.entries.length).toBeLessThan(100);
  });
});
