import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import type { RobotFile } from '#shared/flows/robot.ts';
import { runRobot } from '../_lib/testing.ts';
import robot, { READY } from './robot.ts';

/**
 * Fixtures (fixtures/):
 * - altas.xlsx: the template's columns, real Excel date cells, codes as numbers; two rows ready, then a
 *   row per kind of problem (type vs document, NAF control, name, sex; a minor with a late alta and a
 *   part-time contract without coefficient; a repeated worker too far ahead; an almost empty row).
 * - altas-latin1.csv: other headers ('NIF', 'Apellido 1', 'Contrato'...), no document type column,
 *   Latin-1, dates as dd/mm/yyyy and ISO text.
 * The check runs on 14/03/2025 (Madrid).
 */
const STARTED_AT = new Date('2025-03-14T09:30:00Z');

function fixture(name: string): RobotFile {
  return { name, data: new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url))) };
}

function rowsOf(data: Uint8Array | undefined, sheetName: string): string[][] {
  const workbook = XLSX.read(data ?? new Uint8Array(), { type: 'array' });
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) throw new Error(`No sheet ${sheetName}`);
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' });
}

const EXPECTED_RESULTS = [
  READY,
  READY,
  'El documento es un NIE: el tipo de documento debe ser 6; Los dígitos de control del NAF no cuadran; '
    + 'Nombre: solo letras, espacios y guiones; El sexo debe ser H o M',
  'NAF: Excel ha quitado los ceros a la izquierda: debe ser 081234567869 (escríbelo como texto); El CCC debe tener 11 cifras; '
    + 'Tendría 14 años en la fecha de alta: la edad mínima para trabajar es 16; '
    + 'La fecha de alta (10/03/2025) ya ha pasado: el alta se presentaría fuera de plazo; '
    + 'El contrato 502 es a tiempo parcial: falta el coeficiente de parcialidad; El grupo de cotización va del 1 al 11',
  'Nombre: más de 15 caracteres (Sistema RED admite 15); La fecha de alta (20/05/2025) está a más de 60 días: Sistema RED aún no la admite; '
    + 'El contrato 100 es a tiempo completo: no lleva coeficiente de parcialidad; Repetida: el mismo documento y CCC están en la fila 2',
  'Falta el documento; Falta el NAF; Falta el CCC; Falta el nombre; Falta el primer apellido; Falta el sexo; Falta la fecha de nacimiento; '
    + 'La fecha de alta no es una fecha válida; El tipo de contrato es un código de 3 cifras (100, 189, 401...); Falta el grupo de cotización',
];

describe('comprobar-altas-red', () => {
  it('adds a Resultado column with each row\'s problems, and a Resumen', async () => {
    const { result, logs, progress } = await runRobot(robot, { files: { workbook: [fixture('altas.xlsx')] }, startedAt: STARTED_AT });

    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(1);
    expect(result.outputs.map((output) => output.name)).toEqual(['altas comprobado RED.xlsx']);
    const rows = rowsOf(result.outputs[0]?.data, 'Altas');
    expect(rows[0]?.at(-1)).toBe('Resultado');
    expect(rows[0]).toHaveLength(14);
    expect(rows.slice(1).map((row) => row[13])).toEqual(EXPECTED_RESULTS);
    expect(rows[1]?.slice(0, 10)).toEqual(['1', '12345678Z', '281234567840', '28255627528', 'María', 'García', 'López', 'M', '20/05/1990', '17/03/2025']);

    expect(rowsOf(result.outputs[0]?.data, 'Resumen')).toEqual([
      ['Filas comprobadas', '6'],
      ['Listas para RED', '2'],
      ['Con problemas', '4'],
      ['', ''],
      ['Dato', 'Filas con problemas'],
      ['Documento (NIF, NIE o pasaporte)', '3'],
      ['NAF', '3'],
      ['CCC', '2'],
      ['Nombre', '3'],
      ['Primer apellido', '1'],
      ['Sexo', '2'],
      ['Fecha de nacimiento', '2'],
      ['Fecha de alta', '3'],
      ['Tipo de contrato', '1'],
      ['Grupo de cotización', '2'],
      ['Coeficiente de parcialidad', '2'],
    ]);
    expect(result.summary).toEqual({ Filas: 6, 'Listas para RED': 2, 'Con problemas': 4 });
    expect(progress.at(-1)).toEqual([6, 6]);
    expect(logs.at(-1)).toEqual({ level: 'warn', text: '2 de 6 altas listas para RED; 4 con problemas.' });
  });

  it('rewrites its own Resultado column when the checked workbook comes back corrected', async () => {
    const first = await runRobot(robot, { files: { workbook: [fixture('altas.xlsx')] }, startedAt: STARTED_AT });
    const again = await runRobot(robot, {
      files: { workbook: [{ name: 'altas comprobado RED.xlsx', data: first.result.outputs[0]?.data ?? new Uint8Array() }] },
      startedAt: STARTED_AT,
    });

    const workbook = XLSX.read(again.result.outputs[0]?.data ?? new Uint8Array(), { type: 'array' });
    expect(workbook.SheetNames).toEqual(['Altas', 'Resumen']);
    const rows = rowsOf(again.result.outputs[0]?.data, 'Altas');
    expect(rows[0]).toHaveLength(14);
    expect(rows.slice(1).map((row) => row[13])).toEqual(EXPECTED_RESULTS);
  });

  it('reads a Latin-1 CSV with its own headers and no document type column', async () => {
    const { result, logs } = await runRobot(robot, { files: { workbook: [fixture('altas-latin1.csv')] }, startedAt: STARTED_AT });

    expect(result.outputs[0]?.name).toBe('altas-latin1 comprobado RED.xlsx');
    expect(rowsOf(result.outputs[0]?.data, 'altas-latin1')).toEqual([
      ['NIF', 'NAF', 'CCC', 'Nombre', 'Apellido 1', 'Apellido 2', 'Sexo', 'Fecha nacimiento', 'Fecha alta', 'Contrato', 'Grupo', 'Coeficiente', 'Resultado'],
      ['12345678Z', '081234567869', '08123456774', 'Begoña', 'Ibáñez', 'Solé', 'M', '15/09/1975', '31/03/2025', '189', '1', '', READY],
      ['AB1234567', '080034567893', '08123456774', 'Íñigo', 'Muñoz', '', 'H', '02/02/1998', '2025-04-02', '510', '9', '250',
        'No es un NIF ni un NIE válido; si es un pasaporte, añade la columna Tipo de documento con un 2'],
    ]);
    expect(logs).toContainEqual({ level: 'warn', text: 'No hay columna de tipo de documento: cada documento debe ser un NIF o un NIE.' });
  });

  it('answers WrongInput naming the columns the list lacks', async () => {
    const file = { name: 'altas.csv', data: new TextEncoder().encode('NIF;Nombre\n12345678Z;Ana\n') };
    const { result } = await runRobot(robot, { files: { workbook: [file] }, startedAt: STARTED_AT });

    expect(result).toEqual({
      result: 'WrongInput', usageUnits: 0, outputs: [],
      message: 'Faltan columnas en la hoja «altas»: NAF, CCC, Primer apellido, Sexo, Fecha de nacimiento, Fecha de alta, Tipo de contrato, '
        + 'Grupo de cotización. Usa la plantilla o indica qué columna tiene cada dato.',
    });
  });

  it('uses the columns the user mapped', async () => {
    const header = 'DOC;Seg. social;Cuenta cot.;Nom;Ap1;S;Nac;Alta;Ctto;GC';
    const file = { name: 'propio.csv', data: new TextEncoder().encode(`${header}\n12345678Z;281234567840;28255627528;Ana;Gil;M;01/01/1990;14/03/2025;100;2\n`) };
    const mapping = {
      documento: 'DOC', naf: 'Seg. social', ccc: 'Cuenta cot.', nombre: 'Nom', primerApellido: 'Ap1', sexo: 'S',
      fechaNacimiento: 'Nac', fechaAlta: 'Alta', tipoContrato: 'Ctto', grupoCotizacion: 'GC', tipoDocumento: null,
    };
    const { result } = await runRobot(robot, { files: { workbook: [file] }, inputs: { columns: mapping }, startedAt: STARTED_AT });

    expect(rowsOf(result.outputs[0]?.data, 'propio')[1]?.at(-1)).toBe(READY);
  });

  it('stops when asked, with no output and no charge', async () => {
    const { result } = await runRobot(robot, { files: { workbook: [fixture('altas.xlsx')] }, startedAt: STARTED_AT, stopAfter: 3 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
  });
});
