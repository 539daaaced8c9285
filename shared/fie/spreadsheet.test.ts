import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { decodeFie, detectFieFormat } from './decode.ts';
import { decodeFieSpreadsheet } from './spreadsheet.ts';

function workbookBytes(rows: unknown[][], bookType: XLSX.BookType): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'FIE');
  return new Uint8Array(XLSX.write(workbook, { type: 'array', bookType }) as ArrayBuffer);
}

const ROWS: unknown[][] = [
  ['Fichero INSS Empresas'], // a title row above the header
  [100, '310', '320', '670', '1020 Fecha de baja', '1090', '1150', 'Columna ajena'],
  [20250115, '28123456789', 111, '0000012345678Z', 20250110, 1, '', 'x'],
  [],
  ['20250116', '08123456789', '0111', 'X1234567L', '12/01/2025', 3, '2025-01-13', 'y'],
];

describe('decodeFieSpreadsheet', () => {
  it.each(['xlsx', 'biff8'] as const)('reads a %s workbook with headers by code, one entry per row', (bookType) => {
    const bytes = workbookBytes(ROWS, bookType);
    expect(detectFieFormat(bytes)).toBe('spreadsheet');
    const document = decodeFie(bytes);
    expect(document).toMatchObject({ format: 'spreadsheet', version: null, ignored: false, registryDate: '15/01/2025 • 16/01/2025' });
    const [first, second] = document.entries;
    expect(document.entries).toHaveLength(2);
    expect(first?.fields[320]).toMatchObject({ value: '0111', normalizedValue: 'General', section: 'EMP' });
    expect(first).toMatchObject({ nif: '12345678Z', type: 'baja' });
    expect(first?.fields[1020]?.normalizedValue).toBe('2025-01-10');
    expect(second?.fields[1020]?.normalizedValue).toBe('2025-01-12');
    expect(second?.fields[1150]?.normalizedValue).toBe('2025-01-13');
    expect(second).toMatchObject({ nif: 'X1234567L', type: 'alta', duration: 2, shortDuration: true });
  });

  it('turns date cells (Excel serial days) into dates', () => {
    const sheet = XLSX.utils.aoa_to_sheet([['670', '1020'], ['12345678Z', new Date(Date.UTC(2025, 0, 10))]], { cellDates: true, UTC: true });
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, sheet, 'FIE');
    const bytes = new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    expect(decodeFie(bytes).entries[0]?.fields[1020]?.normalizedValue).toBe('2025-01-10');
  });

  it('reads SpreadsheetML (Excel 2003 XML) with headers by label', () => {
    const cell = (type: string, value: string) => `<Cell><Data ss:Type="${type}">${value}</Data></Cell>`;
    const xml = `<?xml version="1.0"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
 <Worksheet ss:Name="FIE"><Table>
  <Row>${cell('String', 'NIF')}${cell('String', 'Primer apellido')}${cell('String', 'Nombre')}${cell('String', 'Fecha de baja')}${cell('String', 'Contingencia')}${cell('String', 'Parte anulado')}</Row>
  <Row>${cell('String', '12345678Z')}${cell('String', 'Núñez')}${cell('String', 'José')}${cell('DateTime', '2025-01-10T00:00:00.000')}${cell('Number', '2')}${cell('String', 'S')}</Row>
 </Table></Worksheet>
</Workbook>`;
    expect(detectFieFormat(xml)).toBe('spreadsheet');
    const document = decodeFie(xml);
    expect(document.ignored).toBe(false);
    expect(document.entries[0]).toMatchObject({ fullname: 'José Núñez', nif: '12345678Z', isCanceled: true });
    expect(document.entries[0]?.fields[1020]?.normalizedValue).toBe('2025-01-10');
    expect(document.entries[0]?.fields[1090]?.normalizedValue).toBe('Accidente no laboral');
  });

  it('reports a bad cell as an invalid value on its row', () => {
    const document = decodeFie(workbookBytes([['670', '1020'], ['12345678Z', 'mañana']], 'xlsx'));
    expect(document.diagnostics).toEqual([{ kind: 'invalid-value', line: 2, detail: "Valor no válido en 1020 (Fecha de baja): 'mañana'" }]);
  });

  it('ignores a sheet without a recognisable header row', () => {
    const document = decodeFie(workbookBytes([['Nombre del cliente', 'Importe'], ['ACME', 12]], 'xlsx'));
    expect(document).toMatchObject({ ignored: true, entries: [] });
    expect(document.reason).toMatch(/fila de cabecera/);
  });

  it('ignores damaged files instead of throwing', () => {
    const document = decodeFieSpreadsheet(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect(document).toMatchObject({ ignored: true, reason: 'No se ha podido leer la hoja de cálculo' });
  });
});
