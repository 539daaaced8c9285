import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALTAS_HEADER } from '#shared/a3/altas-sheet.ts';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { readAltasWorkbook } from '../../standins/a3-importer/altas.ts';
import { a3AltaRow } from '../altas/testing/fixtures.ts';
import { importAltasIntoA3 } from './altas-import.ts';
import { noAnswerMessage } from './import.ts';

const COMPANIES = [{ ccc: '28/1234567/89', name: 'TALLERES PEREZ SL', workers: ['87654321X'] }];
const folders: string[] = [];
const importers: A3Importer[] = [];
afterEach(async () => {
  await Promise.all(importers.splice(0).map((importer) => importer.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folderWithImporter() {
  const folder = await mkdtemp(join(tmpdir(), 'a3-altas-'));
  folders.push(folder);
  const importer = startA3Importer({ folder, companies: structuredClone(COMPANIES), pollMs: 20 });
  importers.push(importer);
  return { folder, importer };
}

const options = (folder: string) => ({ folder, timeoutMs: 5_000, pollMs: 20, now: () => new Date('2026-11-26T10:00:00Z') });

describe('importAltasIntoA3', () => {
  it('writes the 202 – MA workbook and takes A3’s answer per alta: convenio and CNO mandatory, NAF and NIF checked', async () => {
    const { folder, importer } = await folderWithImporter();
    const rows = [
      a3AltaRow('ok'),
      a3AltaRow('sin-convenio', { nif: '87654321X', convenio: '' }),
      a3AltaRow('sin-cno', { nif: 'X1234567L', ocupacion: '' }),
      a3AltaRow('naf-mal', { naf: '281234567841' }),
      a3AltaRow('nif-mal', { nif: '12345678A' }),
    ];
    const outcome = await importAltasIntoA3(rows, options(folder));
    expect(outcome.importFile).toMatch(/MA_20261126-100000_[0-9a-f]{6}\.xlsx$/);
    expect(outcome.results).toEqual([
      { submissionId: 'ok', state: 'synced', error: null },
      { submissionId: 'sin-convenio', state: 'error', error: 'Falta el código de convenio: es obligatorio para un alta (MA).' },
      { submissionId: 'sin-cno', state: 'error', error: 'Falta la ocupación (CNO): es obligatoria para un alta (MA).' },
      { submissionId: 'naf-mal', state: 'error', error: 'El número de afiliación (NAF) «281234567841» no es válido.' },
      { submissionId: 'nif-mal', state: 'error', error: 'El NIF/NIE «12345678A» no es válido.' },
    ]);
    expect(importer.altas).toEqual([{ ccc: '28123456789', nif: '12345678Z', naf: '281234567840', start: '01/12/2026' }]);

    // The workbook A3 reads: our headers, dates dd/mm/aaaa, codes as text with their zeros.
    const written = readAltasWorkbook(new Uint8Array(await readFile(outcome.importFile)));
    expect(written[0]).toMatchObject({ submissionId: 'ok', grupoCotizacion: '05', fechaAlta: '01/12/2026', fechaNacimiento: '15/04/1990', sexo: 'Mujer', convenio: '28000155011981' });
    expect(ALTAS_HEADER).toContain('Código de convenio');
    const names = await readdir(folder);
    expect(names.filter((name) => /^MA_.*\.respuesta\.xlsx$/.test(name))).toHaveLength(1);
  });

  it('an alta sent again is accepted as already there', async () => {
    const { folder } = await folderWithImporter();
    await importAltasIntoA3([a3AltaRow('primera')], options(folder));
    const again = await importAltasIntoA3([a3AltaRow('segunda')], options(folder));
    expect(again.results).toEqual([{ submissionId: 'segunda', state: 'synced', error: null }]);
  });

  it('every alta fails with the reason when A3 does not answer in time', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'a3-altas-'));
    folders.push(folder);
    const outcome = await importAltasIntoA3([a3AltaRow('a'), a3AltaRow('b')], { ...options(folder), timeoutMs: 100 });
    const error = noAnswerMessage(0, folder);
    expect(outcome.results).toEqual([
      { submissionId: 'a', state: 'error', error },
      { submissionId: 'b', state: 'error', error },
    ]);
  });
});
