import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import type { RobotFile } from '#shared/flows/robot.ts';
import { runRobot } from '../_lib/testing.ts';
import robot from './robot.ts';

/**
 * Fixtures (fixtures/):
 * - trabajadores.xlsx: sheet 'Plantilla' with a title row, a blank row, the header on row 3 and five
 *   workers (one blank row among them); a CCC typed as a number with format '00000000000', another as a
 *   plain number (Excel dropped its zero), a NAF as a plain number; a second sheet 'Notas'.
 * - trabajadores-latin1.csv / trabajadores-utf8.csv: the same ';'-separated list with accents, saved
 *   as Latin-1 (Excel 'CSV' on Windows) and as UTF-8 with BOM (Excel 'CSV UTF-8').
 */
function fixture(name: string): RobotFile {
  return { name, data: new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url))) };
}

function textFile(name: string, text: string): RobotFile {
  return { name, data: new TextEncoder().encode(text) };
}

function outputWorkbook(data: Uint8Array): XLSX.WorkBook {
  return XLSX.read(data, { type: 'array', cellNF: true });
}

function rowsOf(workbook: XLSX.WorkBook, sheetName: string): string[][] {
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) throw new Error(`No sheet ${sheetName}`);
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
}

const NIF_LETTER = 'La letra de control no coincide: debería ser Z (12345678Z)';
const NIF_SHAPE = 'Formato no válido (9 caracteres): un NIF tiene 8 cifras y una letra (12345678Z) y un NIE, X, Y o Z, 7 cifras y una letra (X1234567L)';
const NAF_CONTROL = 'Los dígitos de control del NAF no coinciden: deberían ser 40 (281234567840)';
const NAF_LENGTH = 'El NAF debe tener 12 cifras y tiene 11';
const IBAN_CONTROL = 'Los dígitos de control del IBAN no coinciden: deberían ser 91 (ES9121000418450200051332)';
const IBAN_FOREIGN = 'Solo se comprueban IBAN españoles, que empiezan por ES (este empieza por GB)';

describe('validar-identificadores on an Excel workbook', () => {
  it('adds a result column after each detected column, keeps every sheet and adds Resumen', async () => {
    const { result, logs, progress } = await runRobot(robot, { files: { workbook: [fixture('trabajadores.xlsx')] } });

    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(1);
    expect(result.outputs.map((output) => output.name)).toEqual(['trabajadores validado.xlsx']);
    const workbook = outputWorkbook(result.outputs[0]?.data ?? new Uint8Array());
    expect(workbook.SheetNames).toEqual(['Plantilla', 'Notas', 'Resumen']);

    const rows = rowsOf(workbook, 'Plantilla');
    expect(rows[0]?.[0]).toBe('Plantilla enero 2025');
    expect(rows[2]).toEqual([
      'Nombre', 'Apellidos', 'DNI/NIE', 'Resultado DNI/NIE', 'Nº Seguridad Social', 'Resultado Nº Seguridad Social',
      'Cuenta bancaria (IBAN)', 'Resultado Cuenta bancaria (IBAN)', 'Código cuenta cotización', 'Resultado Código cuenta cotización',
      'Observaciones',
    ]);
    const results = (row: string[] | undefined) => [row?.[3], row?.[5], row?.[7], row?.[9]];
    expect(results(rows[3])).toEqual(['OK', 'OK', 'OK', 'OK']);
    expect(results(rows[4])).toEqual(['OK', 'OK', IBAN_CONTROL, 'OK']);
    expect(results(rows[5])).toEqual([
      NIF_LETTER, NAF_CONTROL, 'Vacío', 'Excel ha quitado los ceros a la izquierda: debe ser 01123456727 (escríbelo como texto)',
    ]);
    expect(rows[6]?.every((cell) => cell === '')).toBe(true);
    expect(results(rows[7])).toEqual([
      'Vacío', 'Excel ha quitado los ceros a la izquierda: debe ser 081234567869 (escríbelo como texto)', 'OK',
      'Los dígitos de control del CCC no coinciden: deberían ser 28 (28255627528)',
    ]);
    expect(results(rows[8])).toEqual([NIF_SHAPE, 'OK', IBAN_FOREIGN, 'OK']);
    // The untouched columns moved along with their values and formats.
    expect(rows[4]?.[8]).toBe('08123456774');
    expect(rows[5]?.[10]).toBe('CCC como número: Excel quitó el cero');
    expect(workbook.Sheets['Plantilla']?.['!merges']).toEqual([{ s: { r: 0, c: 0 }, e: { r: 0, c: 4 } }]);

    expect(rowsOf(workbook, 'Notas')).toEqual([['Hoja que el robot no toca'], ['Se entrega igual en el resultado']]);
    expect(rowsOf(workbook, 'Resumen')).toEqual([
      ['Columna', 'Dato', 'Comprobados', 'Válidos', 'No válidos', 'Vacíos'],
      ['DNI/NIE', 'NIF/NIE', '4', '2', '2', '1'],
      ['Nº Seguridad Social', 'NAF (número de afiliación)', '5', '3', '2', '0'],
      ['Cuenta bancaria (IBAN)', 'IBAN', '4', '2', '2', '1'],
      ['Código cuenta cotización', 'CCC (código cuenta de cotización)', '5', '3', '2', '0'],
    ]);
    // Rows, not iterations: 4 of the 5 rows hold a wrong value, so the run does not read '5 de 5' (issue 21).
    expect(result.summary).toEqual({
      'Filas revisadas': 5, 'Filas válidas': 1, 'Filas con errores': 4,
      Columnas: 4, 'Valores válidos': 10, 'Valores no válidos': 8, 'Celdas vacías': 2,
    });

    // While it runs, rows done of the total; at the end, rows valid of rows checked.
    expect(progress.at(-2)).toEqual([5, 5]);
    expect(progress.at(-1)).toEqual([1, 5]);
    expect(progress).toHaveLength(6);
    expect(logs.map((line) => line.text)).toContain('Filas revisadas: 5 · válidas: 1 · con errores: 4.');
    expect(logs.map((line) => line.text)).toContain(`Fila 6, NIF/NIE «12345678A»: ${NIF_LETTER}`);
    expect(logs.at(-2)).toEqual({ level: 'warn', text: 'Comprobados 18 valores: 10 válidos, 8 no válidos y 2 celdas vacías.' });
  });

  it('checks only the columns the user mapped, matching headers regardless of case and accents', async () => {
    const { result } = await runRobot(robot, {
      files: { workbook: [fixture('trabajadores.xlsx')] },
      inputs: { columns: { nif: null, naf: null, iban: 'cuenta bancaria (iban)', ccc: null } },
    });

    const rows = rowsOf(outputWorkbook(result.outputs[0]?.data ?? new Uint8Array()), 'Plantilla');
    expect(rows[2]).toEqual([
      'Nombre', 'Apellidos', 'DNI/NIE', 'Nº Seguridad Social', 'Cuenta bancaria (IBAN)', 'Resultado Cuenta bancaria (IBAN)',
      'Código cuenta cotización', 'Observaciones',
    ]);
    expect(rows.slice(3).map((row) => row[5])).toEqual(['OK', IBAN_CONTROL, 'Vacío', '', 'OK', IBAN_FOREIGN]);
  });

  it('answers WrongInput, and writes nothing, when the mapped columns are not in the sheet', async () => {
    const { result, logs } = await runRobot(robot, {
      files: { workbook: [fixture('trabajadores.xlsx')] },
      inputs: { columns: { nif: 'Documento', naf: null } },
    });

    expect(result).toEqual({ result: 'WrongInput', usageUnits: 0, outputs: [], message: 'Ninguna de las columnas elegidas está en la hoja «Plantilla».' });
    expect(logs).toContainEqual({ level: 'warn', text: 'La columna «Documento» elegida para NIF/NIE no está en la hoja «Plantilla».' });
  });

  it('stops when asked, with no output and no charge', async () => {
    const { result, progress } = await runRobot(robot, { files: { workbook: [fixture('trabajadores.xlsx')] }, stopAfter: 2 });

    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
    expect(progress).toEqual([[1, 5], [2, 5]]);
  });
});

describe('validar-identificadores on CSV files', () => {
  it.each(['trabajadores-latin1.csv', 'trabajadores-utf8.csv'])('reads %s with its accents and gives back an .xlsx', async (name) => {
    const { result } = await runRobot(robot, { files: { workbook: [fixture(name)] } });

    expect(result.result).toBe('Success');
    const base = name.replace(/\.csv$/, '');
    expect(result.outputs[0]?.name).toBe(`${base} validado.xlsx`);
    const workbook = outputWorkbook(result.outputs[0]?.data ?? new Uint8Array());
    expect(workbook.SheetNames).toEqual([base, 'Resumen']);
    expect(rowsOf(workbook, base)).toEqual([
      ['Nombre', 'Apellidos', 'NIF', 'Resultado NIF', 'Nº afiliación', 'Resultado Nº afiliación', 'IBAN', 'Resultado IBAN', 'CCC', 'Resultado CCC'],
      ['José', 'Muñoz Peña', '12345678Z', 'OK', '081234567869', 'OK', 'ES91 2100 0418 4502 0005 1332', 'OK', '08123456774', 'OK'],
      ['Begoña', 'Ibáñez', '12345678B', NIF_LETTER, '08123456786', NAF_LENGTH, 'ES9121000418450200051332', 'OK', '28255627528', 'OK'],
      ['', '', '', '', '', '', '', '', '', ''],
      ['Íñigo', 'Azcárate', 'Y1234567X', 'OK', '', 'Vacío', '', 'Vacío', '', 'Vacío'],
    ]);
    expect(result.summary).toMatchObject({ 'Filas revisadas': 3, 'Filas válidas': 2, 'Filas con errores': 1 });
  });

  it('charges one unit per started 100 rows and reports the last row', async () => {
    const lines = Array.from({ length: 250 }, (_, index) => `Trabajador ${index + 1};12345678Z`);
    const { result, progress } = await runRobot(robot, { files: { workbook: [textFile('plantilla.csv', ['Nombre;DNI', ...lines].join('\n'))] } });

    expect(result.usageUnits).toBe(3);
    expect(progress.at(-1)).toEqual([250, 250]);
    expect(progress.length).toBeLessThanOrEqual(200);
  });

  it.each([
    ['a header and no rows', 'Nombre;NIF\n;\n', 'La primera hoja de «vacio.csv» no tiene filas de datos debajo de la cabecera.'],
    ['an empty file', '', 'La primera hoja de «vacio.csv» no tiene filas de datos debajo de la cabecera.'],
    ['no identifier column', 'Nombre;Teléfono\nAna;600000000\n',
      'No se ha encontrado ninguna columna de NIF/NIE, NAF, IBAN o CCC en la hoja «vacio»: indica qué columna tiene cada dato.'],
  ])('answers WrongInput for %s', async (_case, text, message) => {
    const { result } = await runRobot(robot, { files: { workbook: [textFile('vacio.csv', text)] } });

    expect(result).toEqual({ result: 'WrongInput', usageUnits: 0, outputs: [], message });
  });

  it('answers WrongInput for a damaged workbook and for no file', async () => {
    const damaged = fixture('trabajadores.xlsx');
    const { result } = await runRobot(robot, { files: { workbook: [{ name: 'roto.xlsx', data: damaged.data.subarray(0, 600) }] } });
    expect(result).toMatchObject({ result: 'WrongInput', outputs: [], message: 'No se ha podido leer «roto.xlsx»: comprueba que es un Excel, un ODS o un CSV.' });

    expect((await runRobot(robot)).result).toMatchObject({ result: 'WrongInput', message: 'Sube un libro de Excel, ODS o CSV con los trabajadores.' });
  });
});
