import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { encodeFieFile } from '#shared/fie/encode.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import { runRobot } from '../_lib/testing.ts';
import { INCIDENCIAS_HEADER } from '#shared/a3/incidences-sheet.ts';
import { runResultText } from '#shared/mail/template.ts';
import robot, { ERROR_COLUMNS } from './robot.ts';

/**
 * Fixtures (fixtures/):
 * - synthetic-fie4.txt: shared/fie's FIE4 sample (a leave and an alta).
 * - fie3-latin1.fie: FIE3, CRLF, Latin-1 (Ñ, Í in names and company), built with shared/fie encodeFieFile:
 *   a 2-day alta, a leave paid directly (1173 = 1), a cancelled relapse of a work accident, and a leave
 *   dated 31/02 (decoded with a diagnostic).
 * - fie-excel.xlsx: a FIE exported as a spreadsheet, title row and 'code label' headers, two entries.
 * - no-es-un-fie.txt: a text file that is not a FIE.
 */
function fixture(name: string, as = name): RobotFile {
  return { name: as, data: new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url))) };
}

function sheetRows(data: Uint8Array | undefined, sheetName: string): unknown[][] {
  const workbook = XLSX.read(data ?? new Uint8Array(), { type: 'array' });
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) throw new Error(`No sheet ${sheetName}`);
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
}

const COMPANY = 'CONSTRUCCIONES PEÑA Y ÍÑIGUEZ SL';

/** The Excel serial day of a date (days since 30/12/1899), as 'Incidencias' holds its dates. */
const day = (year: number, month: number, date: number) => (Date.UTC(year, month - 1, date) - Date.UTC(1899, 11, 30)) / 86_400_000;

describe('fie-incidencias-a3', () => {
  it('writes one row per entry of every file, with the A3 columns in the spec order under Spanish headers', async () => {
    const { result, progress, logs } = await runRobot(robot, {
      files: { fies: [fixture('synthetic-fie4.txt'), fixture('fie3-latin1.fie'), fixture('fie-excel.xlsx')] },
      startedAt: new Date('2025-03-31T22:30:00Z'),
    });

    expect(result.result).toBe('Success');
    // 8 entries read; the one dated 31/02 is not charged.
    expect(result.usageUnits).toBe(7);
    // 22:30 UTC on 31 March is already 1 April in Madrid.
    expect(result.outputs.map((output) => output.name)).toEqual(['Incidencias A3 01-04-2025.xlsx']);
    const data = result.outputs[0]?.data;
    expect(XLSX.read(data ?? new Uint8Array(), { type: 'array' }).SheetNames).toEqual(['Incidencias', 'Errores']);
    expect(sheetRows(data, 'Incidencias')).toEqual([
      ['Archivo', 'DNI/NIE', 'Trabajador', 'Empresa', 'Fecha', 'Incidencia', 'Carencia', 'Contingencia', 'CCC', 'CCC formateado', 'Días acumulados',
        'Fecha de la baja (alta corta)', 'Incidencia de la baja (alta corta)', 'Anulado'],
      ['synthetic-fie4.txt', '12345678Z', 'MARIA GARCIA LOPEZ', 'EJEMPLO SINTETICO SL', day(2025, 1, 10), 2, 'Sí', 1, '28123456789', '28/1234567/89', 0, null, null, 'No'],
      // This alta says no carencia (1100 blank): an empty cell, not a 'No' the FIE never said.
      ['synthetic-fie4.txt', 'X1234567L', 'JUAN PEREZ RUIZ', 'EJEMPLO SINTETICO SL', day(2025, 1, 12), 7, null, 3, '28123456789', '28/1234567/89', 12, null, null, 'No'],
      ['fie3-latin1.fie', '12345678Z', 'JOSÉ MUÑOZ PEÑA', COMPANY, day(2025, 2, 4), 7, 'Sí', 1, '08123456774', '08/1234567/74', 2, day(2025, 2, 3), 2, 'No'],
      ['fie3-latin1.fie', 'Y1234567X', 'BEGOÑA IBAÑEZ SOLÉ', COMPANY, day(2025, 2, 5), 45, 'No', 2, '08123456774', '08/1234567/74', 10, null, null, 'No'],
      ['fie3-latin1.fie', '01234567L', 'ÍÑIGO AZCÁRATE ORTIZ', COMPANY, day(2025, 2, 6), 6, 'No', 3, '08123456774', '08/1234567/74', 150, null, null, 'Sí'],
      ['fie-excel.xlsx', '12345678Z', 'MARÍA GARCÍA LÓPEZ', 'ASESORÍA ÁLAMO SL', day(2025, 2, 10), 2, 'Sí', 1, '28255627528', '28/2556275/28', 3, null, null, 'No'],
      ['fie-excel.xlsx', 'X1234567L', 'JUAN PÉREZ RUIZ', 'ASESORÍA ÁLAMO SL', day(2025, 2, 9), 7, 'No', 4, '28255627528', '28/2556275/28', 9, null, null, 'No'],
    ]);
    // The dates are date cells (a number with a dd/mm/yyyy format), shown as the FIE's day.
    const incidencias = XLSX.read(data ?? new Uint8Array(), { type: 'array', cellNF: true }).Sheets.Incidencias as XLSX.WorkSheet;
    expect(incidencias.E2).toMatchObject({ t: 'n', z: 'dd/mm/yyyy', w: '10/01/2025' });
    expect(incidencias.L4).toMatchObject({ t: 'n', z: 'dd/mm/yyyy', w: '03/02/2025' });
    expect(INCIDENCIAS_HEADER).toEqual(sheetRows(data, 'Incidencias')[0]);
    expect(sheetRows(data, 'Errores')).toEqual([
      [...ERROR_COLUMNS],
      ['fie3-latin1.fie', 21, 'Valor no válido', "Valor no válido en 1020 (Fecha de baja): '20250231'"],
      ['fie3-latin1.fie', null, 'Parte sin fecha válida', "Parte de 78816596N: la fecha de baja (1020) no es válida: '20250231'. No se pasa a A3 ni se cobra."],
    ]);
    expect(result.summary).toEqual({ 'FIE leídos': 3, 'FIE no leídos': 0, Partes: 7, 'Partes sin fecha': 1, Anulados: 1, Errores: 2 });
    // The run's figures: 7 of the 8 partes read are in 'Incidencias', one (no valid date) is not (issue 43, 2).
    expect(progress.at(-1)).toEqual([7, 8]);
    expect(logs).toContainEqual({ level: 'info', text: 'Se han procesado 3 FIEs.' });
    expect(logs).toContainEqual({ level: 'info', text: '«fie3-latin1.fie» (FIE3): 4 partes.' });
    expect(logs).toContainEqual({ level: 'warn', text: '1 parte no tiene una fecha válida: está en «Errores» y no se cobra.' });
  });

  it('lists files that are not a FIE in Errores and reads the rest once', async () => {
    const { result, logs } = await runRobot(robot, {
      files: { fies: [fixture('no-es-un-fie.txt'), fixture('synthetic-fie4.txt'), fixture('synthetic-fie4.txt', 'copia.txt')] },
    });

    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(2);
    expect(sheetRows(result.outputs[0]?.data, 'Errores')).toEqual([
      [...ERROR_COLUMNS],
      ['no-es-un-fie.txt', null, 'Error al procesar un FIE [texto]', 'El archivo no empieza por la cabecera ETI de un FIE'],
    ]);
    expect(logs.map((line) => line.text)).toEqual(expect.arrayContaining([
      'Se ha procesado un FIE.',
      'Un archivo no se ha podido procesar.',
      'Un archivo se ha añadido anteriormente.',
      '«copia.txt» es el mismo archivo que otro de los subidos: se lee una sola vez.',
    ]));
  });

  it('answers WrongInput with the §8 message when no file is a FIE', async () => {
    const one = await runRobot(robot, { files: { fies: [fixture('no-es-un-fie.txt')] } });
    expect(one.result).toEqual({
      result: 'WrongInput', usageUnits: 0, outputs: [],
      message: 'Este archivo no se ha podido procesar. No hay ningún parte que pasar a A3.',
    });

    const damagedExcel = { name: 'roto.xlsx', data: fixture('fie-excel.xlsx').data.subarray(0, 300) };
    const two = await runRobot(robot, { files: { fies: [fixture('no-es-un-fie.txt'), damagedExcel] } });
    expect(two.result).toMatchObject({ result: 'WrongInput', message: 'No se ha procesado ningún archivo. No hay ningún parte que pasar a A3.' });
    expect(two.logs).toContainEqual({ level: 'error', text: 'Error al procesar un FIE [excel]: «roto.xlsx». No se ha podido leer la hoja de cálculo.' });
  });

  it('answers WrongInput for a FIE with no entries and for no file', async () => {
    const empty = { name: 'vacio.txt', data: new TextEncoder().encode('ETIFIE40SLTR\nETFFIE40SLTR\n') };
    expect((await runRobot(robot, { files: { fies: [empty] } })).result).toMatchObject({
      result: 'WrongInput', message: 'Los FIE subidos no tienen ningún parte. No hay ningún parte que pasar a A3.',
    });
    expect((await runRobot(robot)).result).toMatchObject({ result: 'WrongInput', message: 'Sube al menos un FIE.' });
  });

  it('charges nothing for a FIE whose only entry has no valid date, and lists it in Errores', async () => {
    const text = encodeFieFile({ entries: [{ 310: '28123456789', 530: 'EMPRESA SL', 670: '0000012345678Z', 1020: '20250231', 1090: '1', 1100: 'S' }], newline: '\r\n' });
    const { result, logs } = await runRobot(robot, { files: { fies: [{ name: 'sin-fecha.fie', data: new TextEncoder().encode(text) }] } });

    expect(result).toMatchObject({ result: 'Success', usageUnits: 0 });
    expect(sheetRows(result.outputs[0]?.data, 'Incidencias')).toEqual([[...INCIDENCIAS_HEADER]]);
    expect(sheetRows(result.outputs[0]?.data, 'Errores').slice(1).map((row) => row[2])).toEqual(['Valor no válido', 'Parte sin fecha válida']);
    expect(result.summary).toMatchObject({ Partes: 0, 'Partes sin fecha': 1 });
    expect(logs).toContainEqual({ level: 'warn', text: '1 parte no tiene una fecha válida: está en «Errores» y no se cobra.' });
  });

  it("writes carencia P as 'Pendiente' and the worker's name, and ends on figures that count what went to Errores", async () => {
    const text = encodeFieFile({
      entries: [
        { 310: '28123456789', 530: 'EMPRESA SL', 670: '0000012345678Z', 820: 'MUÑOZ', 840: 'LUCÍA', 1020: '20250110', 1090: '1', 1100: 'P' },
        { 310: '28123456789', 530: 'EMPRESA SL', 670: '0000087654321X', 820: 'GIL', 840: 'PABLO', 1020: '20250231', 1090: '1', 1100: 'S' },
      ],
      newline: '\r\n',
    });
    const { result, progress } = await runRobot(robot, {
      // SILTRA writes Latin-1.
      files: { fies: [{ name: 'marzo.fie', data: new Uint8Array(Buffer.from(text, 'latin1')) }, fixture('no-es-un-fie.txt')] },
    });

    expect(result).toMatchObject({ result: 'Success', usageUnits: 1 });
    const rows = sheetRows(result.outputs[0]?.data, 'Incidencias');
    expect(rows.slice(1).map((row) => [row[1], row[2], row[4], row[6]])).toEqual([['12345678Z', 'LUCÍA MUÑOZ', day(2025, 1, 10), 'Pendiente']]);
    // Checked: 2 partes and a file that is not a FIE; passed: the one parte in 'Incidencias'.
    const [successful = 0, checked = 0] = progress.at(-1) ?? [];
    expect([successful, checked]).toEqual([1, 3]);
    expect(runResultText({ result: 'Success', message: null, checked, successful, charged: result.usageUnits })).toBe('Completado: 3 filas comprobadas, 2 con errores. Coste: 1 slan');
  });

  it('stops when asked, with no output and no charge', async () => {
    const { result } = await runRobot(robot, { files: { fies: [fixture('fie3-latin1.fie')] }, stopAfter: 1 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
  });
});
