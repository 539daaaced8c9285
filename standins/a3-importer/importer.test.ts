import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { A3_IT_COLUMNS, type A3ItRow } from '../../main/a3/it-rows.ts';
import { readAnswerWorkbook, writeItWorkbook } from '../../main/a3/workbook.ts';
import { altasWorkbook } from '#shared/a3/altas-sheet.ts';
import { a3AltaRow } from '../../main/altas/testing/fixtures.ts';
import { startA3Importer, type A3Importer } from './importer.ts';

const COMPANIES = [{ ccc: '28123456789', name: 'TALLERES PEREZ SL', workers: ['12345678Z'] }];
let folder: string;
let importer: A3Importer;
afterEach(async () => {
  await importer.close();
  await rm(folder, { recursive: true, force: true });
});

function row(reference: string, overrides: Partial<A3ItRow> = {}): A3ItRow {
  const base = Object.fromEntries(A3_IT_COLUMNS.map((column) => [column, ''])) as A3ItRow;
  return { ...base, Referencia: reference, Empresa: 'TALLERES PEREZ SL', CCC: '28/1234567/89', 'NIF trabajador': '12345678Z', Contingencia: 'Enfermedad común', 'Fecha inicio': '03/11/2026', 'Tipo de prestación': 'Pago delegado', Anulada: 'No', ...overrides };
}

/** Drops an import, lets the importer look once, and reads its answer. */
async function answerTo(name: string, bytes: Uint8Array) {
  await writeFile(join(folder, name), bytes);
  await importer.scan();
  return readAnswerWorkbook(new Uint8Array(await readFile(join(folder, name.replace('.xlsx', '.respuesta.xlsx')))));
}

describe('A3 importer stand-in', () => {
  it('answers each row by A3’s rules', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    importer = startA3Importer({ folder, companies: COMPANIES, pollMs: 60_000 });
    const answer = await answerTo(
      'IT_1.xlsx',
      writeItWorkbook([
        row('ok'),
        row('fecha', { 'Fecha inicio': '31/02/2026' }),
        row('prestacion', { 'Fecha inicio': '04/11/2026', 'Tipo de prestación': 'Pago por horas' }),
        row('al-reves', { 'Fecha inicio': '05/11/2026', 'Fecha fin': '01/11/2026' }),
        row('contingencia', { 'Fecha inicio': '06/11/2026', Contingencia: 'Resfriado' }),
        row('otra-contingencia', { Contingencia: 'Accidente de trabajo' }),
        row('sin-fechas', { 'Fecha inicio': '' }),
        row('por-nombre', { CCC: '', 'Fecha inicio': '07/11/2026' }),
        row('anula', { 'Fecha inicio': '07/11/2026', Anulada: 'Sí' }),
        row('anula-nada', { 'Fecha inicio': '08/11/2026', Anulada: 'Sí' }),
      ]),
    );
    expect(answer.map((each) => [each.reference, each.accepted, each.message])).toEqual([
      ['ok', true, 'IT dada de alta.'],
      ['fecha', false, 'La fecha de inicio «31/02/2026» no es válida (dd/mm/aaaa).'],
      ['prestacion', false, 'Tipo de prestación no válido: «Pago por horas».'],
      ['al-reves', false, 'La fecha de fin de la IT es anterior a la fecha de inicio.'],
      ['contingencia', false, 'Contingencia no válida: «Resfriado».'],
      ['otra-contingencia', false, 'Ya existe una IT del trabajador 12345678Z con fecha de inicio 03/11/2026 y otra contingencia.'],
      ['sin-fechas', false, 'La IT no tiene fecha de inicio ni de fin.'],
      ['por-nombre', true, 'IT dada de alta.'],
      ['anula', true, 'IT anulada.'],
      ['anula-nada', false, 'No existe ninguna IT del trabajador 12345678Z con fecha de inicio 08/11/2026 que anular.'],
    ]);
    expect(importer.its.map((it) => it.start)).toEqual(['03/11/2026']);
  });

  it('answers a file that is not an import, and ignores files that are not its own', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    importer = startA3Importer({ folder, companies: COMPANIES, pollMs: 60_000 });
    await writeFile(join(folder, 'notas.xlsx'), 'no');
    expect(await answerTo('IT_2.xlsx', new TextEncoder().encode('esto no es un libro'))).toEqual([
      { reference: '', accepted: false, message: 'El fichero no tiene el formato de importación de IT.' },
    ]);
    expect(importer.answered).toEqual(['IT_2.xlsx']);
  });

  it('takes a 202 – MA alta: the worker is then on the company’s staff and a later IT of theirs is accepted', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    importer = startA3Importer({ folder, companies: structuredClone(COMPANIES), pollMs: 60_000 });
    const before = await answerTo('IT_3.xlsx', writeItWorkbook([row('antes', { 'NIF trabajador': 'X1234567L' })]));
    expect(before[0]?.message).toBe('El trabajador X1234567L no está dado de alta en la empresa TALLERES PEREZ SL.');
    const alta = await answerTo('MA_1.xlsx', altasWorkbook([a3AltaRow('alta', { nif: 'x1234567l' })]));
    expect(alta).toEqual([{ reference: 'alta', accepted: true, message: 'Alta registrada.' }]);
    const after = await answerTo('IT_4.xlsx', writeItWorkbook([row('despues', { 'NIF trabajador': 'X1234567L' })]));
    expect(after[0]).toEqual({ reference: 'despues', accepted: true, message: 'IT dada de alta.' });
  });

  it('answers an MA file that is not an altas workbook', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    importer = startA3Importer({ folder, companies: COMPANIES, pollMs: 60_000 });
    expect(await answerTo('MA_2.xlsx', writeItWorkbook([row('it')]))).toEqual([
      { reference: '', accepted: false, message: 'El fichero no tiene el formato de importación de altas (202 – MA).' },
    ]);
  });
});
