import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { importIntoA3, NO_ROW_ANSWER, noAnswerMessage } from './import.ts';
import { itRowOf } from './it-rows.ts';
import { readItWorkbook, writeAnswerWorkbook } from './workbook.ts';

export function syncRecord(entryId: string, overrides: Partial<A3SyncRecordWithEntry> = {}): A3SyncRecordWithEntry {
  return {
    entryId,
    fieId: 'fie-1',
    dniEmpleado: '12345678Z',
    nombreEmpresa: 'TALLERES PEREZ SL',
    fechaFormateada: '03/11/2026',
    incidencia: 2,
    carencia: false,
    contingencia: 1,
    ccc: '28123456789',
    formatedccc: '28/1234567/89',
    diasAcumulados: null,
    fechaBajaBajaDuracion: null,
    incidenciaBajaBajaDuracion: null,
    canceled: false,
    date: '03/11/2026',
    incidenceCode: 2,
    workerDNI: '12345678Z',
    ...overrides,
  };
}

const COMPANIES = [{ ccc: '28/1234567/89', name: 'TALLERES PEREZ SL', workers: ['12345678Z', '87654321X'] }];
const folders: string[] = [];
const importers: A3Importer[] = [];
afterEach(async () => {
  await Promise.all(importers.splice(0).map((importer) => importer.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'a3-import-'));
  folders.push(made);
  return made;
}
const now = () => new Date('2026-11-26T07:00:00Z');

describe('A3 import rows', () => {
  it('a baja opens an IT on its date with its contingencia in words', () => {
    expect(itRowOf(syncRecord('e1'))).toMatchObject({ Referencia: 'e1', CCC: '28/1234567/89', Contingencia: 'Enfermedad común', 'Fecha inicio': '03/11/2026', 'Fecha fin': '', 'Tipo de prestación': 'Pago delegado' });
  });
  it('an alta (incident 7) closes it; a short one carries the leave it closes', () => {
    expect(itRowOf(syncRecord('e2', { incidencia: 7, fechaFormateada: '10/11/2026' }))).toMatchObject({ 'Fecha inicio': '', 'Fecha fin': '10/11/2026' });
    expect(itRowOf(syncRecord('e3', { incidencia: 7, fechaFormateada: '04/11/2026', fechaBajaBajaDuracion: '03/11/2026', incidenciaBajaBajaDuracion: 46 }))).toMatchObject({
      'Fecha inicio': '03/11/2026',
      'Fecha fin': '04/11/2026',
      'Tipo de prestación': 'Pago directo',
    });
  });
});

describe('A3 folder import with the importer stand-in', () => {
  it('round trip: accepted and refused rows come back to their entries', async () => {
    const dir = await folder();
    const importer = startA3Importer({ folder: dir, companies: COMPANIES, pollMs: 20 });
    importers.push(importer);
    const records = [
      syncRecord('baja-ok'),
      syncRecord('otra-empresa', { ccc: '08999999901', formatedccc: '08/9999999/01', nombreEmpresa: 'DESCONOCIDA SA' }),
      syncRecord('otro-trabajador', { dniEmpleado: '11111111H' }),
      syncRecord('alta-ok', { incidencia: 7, fechaFormateada: '10/11/2026' }),
      syncRecord('alta-sin-baja', { dniEmpleado: '87654321X', incidencia: 7, fechaFormateada: '10/11/2026' }),
      syncRecord('sin-contingencia', { dniEmpleado: '87654321X', contingencia: null, fechaFormateada: '05/11/2026' }),
    ];
    const outcome = await importIntoA3(records, { folder: dir, timeoutMs: 5000, pollMs: 20, now });
    expect(outcome.importFile).toMatch(/IT_20261126-070000_[0-9a-f]{6}\.xlsx$/);
    expect(outcome.results).toEqual([
      { entryId: 'baja-ok', state: 'synced', error: null },
      { entryId: 'otra-empresa', state: 'error', error: 'La empresa 08/9999999/01 no existe en a3nom.' },
      { entryId: 'otro-trabajador', state: 'error', error: 'El trabajador 11111111H no está dado de alta en la empresa TALLERES PEREZ SL.' },
      { entryId: 'alta-ok', state: 'synced', error: null },
      { entryId: 'alta-sin-baja', state: 'error', error: 'El trabajador 87654321X no tiene ninguna IT abierta que cerrar.' },
      { entryId: 'sin-contingencia', state: 'error', error: 'Falta la contingencia de la IT.' },
    ]);
    expect(importer.its).toEqual([{ companyCcc: '28123456789', nif: '12345678Z', contingency: 'Enfermedad común', start: '03/11/2026', end: '10/11/2026', benefitType: 'Pago delegado' }]);
    // The import itself is a workbook A3 reads: one IT per row.
    expect(readItWorkbook(new Uint8Array(await import('node:fs/promises').then((fs) => fs.readFile(outcome.importFile))))).toHaveLength(6);
    expect((await readdir(dir)).sort()).toEqual([outcome.importFile.split('/').at(-1), outcome.importFile.split('/').at(-1)!.replace('.xlsx', '.respuesta.xlsx')].sort());
  });

  it('the same baja sent again is already there, not a second IT', async () => {
    const dir = await folder();
    const importer = startA3Importer({ folder: dir, companies: COMPANIES, pollMs: 20 });
    importers.push(importer);
    await importIntoA3([syncRecord('primera')], { folder: dir, timeoutMs: 5000, pollMs: 20, now });
    const again = await importIntoA3([syncRecord('reenviada')], { folder: dir, timeoutMs: 5000, pollMs: 20, now });
    expect(again.results).toEqual([{ entryId: 'reenviada', state: 'synced', error: null }]);
    expect(importer.its).toHaveLength(1);
  });

  it('no importer: every entry gets the no-answer error after the timeout', async () => {
    const dir = await folder();
    const outcome = await importIntoA3([syncRecord('e1'), syncRecord('e2')], { folder: dir, timeoutMs: 150, pollMs: 20, now });
    expect(outcome.results).toEqual([
      { entryId: 'e1', state: 'error', error: noAnswerMessage(0, dir) },
      { entryId: 'e2', state: 'error', error: noAnswerMessage(0, dir) },
    ]);
  });

  it('an answer that leaves an entry out marks it as not answered', async () => {
    const dir = await folder();
    const answering = (async () => {
      for (;;) {
        const name = (await readdir(dir)).find((file) => file.startsWith('IT_') && file.endsWith('.xlsx'));
        if (name) return writeFile(join(dir, name.replace('.xlsx', '.respuesta.xlsx')), writeAnswerWorkbook([{ reference: 'e1', accepted: true, message: 'IT dada de alta.' }]));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const outcome = await importIntoA3([syncRecord('e1'), syncRecord('e2')], { folder: dir, timeoutMs: 5000, pollMs: 20, now });
    await answering;
    expect(outcome.results).toEqual([
      { entryId: 'e1', state: 'synced', error: null },
      { entryId: 'e2', state: 'error', error: NO_ROW_ANSWER },
    ]);
  });
});
