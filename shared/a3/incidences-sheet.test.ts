import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { encodeFieFile, type FieRawValues } from '../fie/encode.ts';
import { decodeFieText } from '../fie/text.ts';
import type { CellValue } from '../spreadsheet/sheet-xml.ts';
import { dayMonthYearSerial, fillIncidenciasRow, INCIDENCIAS_HEADER, incidenciasRow, incidenciasWorkbook } from './incidences-sheet.ts';
import { toA3SyncRecord } from './sync-record.ts';

/**
 * 'Incidencias' as a user opens it (issue 43, 8): the worker's name after the DNI/NIE, carencia as the FIE
 * says it (P is 'Pendiente', not 'No'), and the dates as date cells a sheet sorts and filters as dates.
 * Read back with SheetJS.
 */

const WORKER: FieRawValues = { 310: '28123456789', 530: 'EJEMPLO SINTETICO SL', 820: 'MUÑOZ', 830: 'DE LA PEÑA', 840: 'ANA MARÍA' };

function partes(values: readonly FieRawValues[]) {
  const entries = decodeFieText(encodeFieFile({ entries: values.map((value) => ({ ...WORKER, ...value })) })).entries;
  return entries.map((entry) => ({ entry, record: toA3SyncRecord(entry, { fieId: 'enero.fie' }) }));
}

/** Days since 30/12/1899 (Excel's day 0 in the 1900 system, for any date after February 1900), computed apart from the writer. */
const serial = (year: number, month: number, day: number) => (Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 30)) / 86_400_000;

const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day));

const SAMPLE = partes([
  { 670: '0000012345678Z', 1020: '20250110', 1090: '1', 1100: 'S' },
  // A 2-day alta: its own date and the leave it closes, both dates.
  { 670: '0000087654321X', 1020: '20250103', 1150: '20250104', 1090: '3', 1100: 'N' },
  { 670: '0000011111111H', 1020: '20250228', 1090: '2', 1100: 'P' },
  { 670: '0000022222222J', 1020: '20241231', 1090: '1' },
]);

describe("the 'Incidencias' sheet", () => {
  it('reads back with the name, carencia as the FIE says it and real date cells', () => {
    const book = XLSX.read(incidenciasWorkbook(SAMPLE), { type: 'array', cellNF: true });
    const sheet = book.Sheets.Incidencias as XLSX.WorkSheet;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
    expect(rows[0]).toEqual([...INCIDENCIAS_HEADER]);
    expect(INCIDENCIAS_HEADER.slice(0, 5)).toEqual(['Archivo', 'DNI/NIE', 'Trabajador', 'Empresa', 'Fecha']);
    // SheetJS gives a date-formatted number back as a Date (with the format kept, cellNF).
    expect(rows.slice(1).map((row) => [row[1], row[2], row[4], row[6], row[11]])).toEqual([
      ['12345678Z', 'ANA MARÍA MUÑOZ DE LA PEÑA', utcDay(2025, 1, 10), 'Sí', null],
      ['87654321X', 'ANA MARÍA MUÑOZ DE LA PEÑA', utcDay(2025, 1, 4), 'No', utcDay(2025, 1, 3)],
      ['11111111H', 'ANA MARÍA MUÑOZ DE LA PEÑA', utcDay(2025, 2, 28), 'Pendiente', null],
      // No carencia in the FIE: an empty cell, not a 'No' it never said.
      ['22222222J', 'ANA MARÍA MUÑOZ DE LA PEÑA', utcDay(2024, 12, 31), null, null],
    ]);
    // Dates are numbers with a date format: shown dd/mm/yyyy, sorted and filtered as dates.
    for (const address of ['E2', 'E3', 'L3']) {
      const cell = sheet[address] as XLSX.CellObject;
      expect(cell.t, address).toBe('n');
      expect(cell.z, address).toBe('dd/mm/yyyy');
      expect(XLSX.SSF.is_date(cell.z as string)).toBe(true);
    }
    expect((sheet.E2 as XLSX.CellObject).w).toBe('10/01/2025');
    expect((sheet.L3 as XLSX.CellObject).w).toBe('03/01/2025');
    // Read with cellDates, they are Date cells of the same day.
    const dated = XLSX.read(incidenciasWorkbook(SAMPLE), { type: 'array', cellDates: true }).Sheets.Incidencias as XLSX.WorkSheet;
    const date = (dated.E4 as XLSX.CellObject).v as Date;
    expect((dated.E4 as XLSX.CellObject).t).toBe('d');
    expect([date.getFullYear(), date.getMonth() + 1, date.getDate()]).toEqual([2025, 2, 28]);
    // The header above a date column stays text.
    expect(sheet.E1).toMatchObject({ t: 's', v: 'Fecha' });
  });

  it('keeps the A3 record as the spec has it: carencia stays a boolean, P is not S', () => {
    expect(SAMPLE.map(({ record }) => record.carencia)).toEqual([true, false, false, false]);
    expect(SAMPLE[0]?.record.fechaFormateada).toBe('10/01/2025');
  });

  it('fills one array again for each row, giving the rows a new array each would', () => {
    const reused: CellValue[] = [];
    const filled = SAMPLE.map(({ record, entry }) => [...fillIncidenciasRow(reused, record, entry)]);
    expect(filled).toEqual(SAMPLE.map(({ record, entry }) => incidenciasRow(record, entry)));
    expect(filled[0]).toHaveLength(INCIDENCIAS_HEADER.length);
  });

  it('reads only a real dd/mm/yyyy as a date', () => {
    expect(dayMonthYearSerial('10/01/2025')).toBe(serial(2025, 1, 10));
    expect(dayMonthYearSerial('01/03/1900')).toBe(61);
    for (const text of [null, '', '2025-01-10', '10/13/2025', '00/01/2025', '1a/01/2025', '10/01/1899', '10-01-2025']) expect(dayMonthYearSerial(text), String(text)).toBeNull();
  });
});
