import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { runRobot } from './testing.ts';
import { looksLikeFormula, readWorkbook, writeWorkbook } from './workbook.ts';
import validarIdentificadores from '../validar-identificadores/robot.ts';

const DDE = "=cmd|' /C calc'!A0";
/** Texts a spreadsheet would take for a formula (or a CSV made from the output would). */
const PAYLOADS = [DDE, '+1+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0', '\t=1+1', '\r=1+1'];

/** Every cell of every sheet, by sheet!address. */
function cellsOf(workbook: XLSX.WorkBook): Map<string, XLSX.CellObject> {
  const cells = new Map<string, XLSX.CellObject>();
  for (const name of workbook.SheetNames) {
    for (const [address, cell] of Object.entries(workbook.Sheets[name] ?? {})) {
      if (!address.startsWith('!')) cells.set(`${name}!${address}`, cell as XLSX.CellObject);
    }
  }
  return cells;
}

/** The output as a user's spreadsheet reads it back (formulas included, dates as dates). */
function readBack(data: Uint8Array): XLSX.WorkBook {
  return XLSX.read(data, { type: 'array', cellFormula: true, cellDates: true, cellNF: true });
}

function hostileWorkbook(): XLSX.WorkBook {
  const sheet: XLSX.WorkSheet = { '!ref': 'A1:F3' };
  // Formulas as an input workbook may hold them: a DDE call never computed (an error), one with a value.
  sheet.A1 = { t: 'e', v: 0x17, f: "cmd|' /C calc'!A0" };
  sheet.B1 = { t: 'n', v: 6, f: 'SUM(1,2,3)' };
  sheet.C1 = { t: 's', v: 'calc', f: 'HYPERLINK("cmd|calc","calc")' };
  sheet.D1 = { t: 's', v: '=2+2', f: '"="&"2+2"' };
  sheet.E1 = { t: 'n', f: 'A1+1' } as XLSX.CellObject;
  sheet.F1 = { t: 'n', v: 3, f: 'B1/2', F: 'F1:F1' };
  // The same payloads as plain text cells.
  PAYLOADS.forEach((text, column) => {
    sheet[XLSX.utils.encode_cell({ r: 1, c: column })] = { t: 's', v: text };
  });
  // What stays as it is: a negative number, a date, a boolean, ordinary text.
  sheet.A3 = { t: 'n', v: -42.5 };
  sheet.B3 = { t: 'd', v: new Date(Date.UTC(2025, 2, 14)) };
  sheet.C3 = { t: 'b', v: true };
  sheet.D3 = { t: 's', v: 'NIF 12345678Z' };
  sheet.E3 = { t: 's', v: 'a=b' };
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Datos');
  return workbook;
}

describe('looksLikeFormula', () => {
  it('is every text starting with =, +, -, @, a tab or a carriage return', () => {
    for (const text of PAYLOADS) expect(looksLikeFormula(text), JSON.stringify(text)).toBe(true);
    for (const text of ['NIF', ' =1', 'a=b', '1-2', '', '\n=1']) expect(looksLikeFormula(text), JSON.stringify(text)).toBe(false);
  });
});

describe('writeWorkbook', () => {
  it('writes no formula anywhere: formula cells keep their value or their text, formula-like text is text', () => {
    const output = readBack(writeWorkbook(hostileWorkbook()));
    const cells = cellsOf(output);
    expect([...cells].filter(([, cell]) => cell.f !== undefined || cell.F !== undefined).map(([address]) => address)).toEqual([]);

    const sheet = output.Sheets.Datos as XLSX.WorkSheet;
    // A formula with no value (the DDE call's #REF!) or none computed: the formula's text, as text.
    expect(sheet.A1).toMatchObject({ t: 's', v: DDE });
    expect(sheet.E1).toMatchObject({ t: 's', v: '=A1+1' });
    // A formula with a value: the value, of its type.
    expect(sheet.B1).toMatchObject({ t: 'n', v: 6 });
    expect(sheet.C1).toMatchObject({ t: 's', v: 'calc' });
    expect(sheet.D1).toMatchObject({ t: 's', v: '=2+2' });
    expect(sheet.F1).toMatchObject({ t: 'n', v: 3 });
    PAYLOADS.forEach((text, column) => {
      const cell = sheet[XLSX.utils.encode_cell({ r: 1, c: column })] as XLSX.CellObject;
      expect(cell, JSON.stringify(text)).toMatchObject({ t: 's', v: text, z: '@' });
    });
    expect(sheet.A3).toMatchObject({ t: 'n', v: -42.5 });
    expect(sheet.B3?.t).toBe('d');
    expect((sheet.B3?.v as Date).toISOString().slice(0, 10)).toBe('2025-03-14');
    expect(sheet.C3).toMatchObject({ t: 'b', v: true });
    expect(sheet.D3).toMatchObject({ t: 's', v: 'NIF 12345678Z' });
    expect(sheet.E3).toMatchObject({ t: 's', v: 'a=b' });
    expect(sheet.E3?.z).not.toBe('@');
  });

  it('keeps a CSV’s formula-like values as text cells formatted as text: =1+2 stays the text =1+2', () => {
    const csv = readWorkbook({ name: 'lista.csv', data: new TextEncoder().encode('Nombre;Importe\n=1+2;-3\n@SUM(A1);+4\n') });
    expect(csv).not.toBeNull();
    const sheet = readBack(writeWorkbook(csv as XLSX.WorkBook)).Sheets.lista as XLSX.WorkSheet;
    expect([sheet.A2, sheet.B2, sheet.A3, sheet.B3].map((cell) => [cell?.t, cell?.v, cell?.f, cell?.z])).toEqual([
      ['s', '=1+2', undefined, '@'], ['s', '-3', undefined, '@'], ['s', '@SUM(A1)', undefined, '@'], ['s', '+4', undefined, '@'],
    ]);
  });
});

describe('a robot’s output workbook', () => {
  it('copies the input’s formulas and formula-like text as text (validar-identificadores)', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Nombre', 'DNI/NIE', 'Importe', 'Alta'],
      ['Ana', '12345678Z', -10, new Date(Date.UTC(2025, 0, 2))],
      ['Luis', '00000000T', 5, new Date(Date.UTC(2025, 0, 3))],
    ], { cellDates: true });
    sheet.A2 = { t: 'e', v: 0x17, f: "cmd|' /C calc'!A0" };
    sheet.A3 = { t: 's', v: "@SUM(1+1)*cmd|' /C calc'!A0" };
    sheet.C3 = { t: 'n', v: 5, f: '2+3' };
    const input = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(input, sheet, 'Plantilla');
    const data = new Uint8Array(XLSX.write(input, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    // The input as stored really holds the formulas.
    expect(XLSX.read(data, { type: 'array' }).Sheets.Plantilla?.A2?.f).toBe("cmd|' /C calc'!A0");

    const { result } = await runRobot(validarIdentificadores, { files: { workbook: [{ name: 'plantilla.xlsx', data }] } });
    expect(result.outputs).toHaveLength(1);
    const output = readBack(result.outputs[0]?.data ?? new Uint8Array());
    expect([...cellsOf(output)].filter(([, cell]) => cell.f !== undefined).map(([address]) => address)).toEqual([]);
    const plantilla = output.Sheets.Plantilla as XLSX.WorkSheet;
    expect(plantilla.A2).toMatchObject({ t: 's', v: DDE });
    expect(plantilla.A3).toMatchObject({ t: 's', v: "@SUM(1+1)*cmd|' /C calc'!A0" });
    // Columns move right of the added 'Resultado DNI/NIE': the amount is in D, the date in E.
    expect(plantilla.D2).toMatchObject({ t: 'n', v: -10 });
    expect(plantilla.D3).toMatchObject({ t: 'n', v: 5 });
    expect(plantilla.E2?.t).toBe('d');
  });
});
