import { beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { encodeFieFile, type FieRawValues } from '#shared/fie/encode.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import { INCIDENCIAS_HEADER, incidenciasRow } from '#shared/a3/incidences-sheet.ts';
import { runRobot, type RecordedRun } from '../_lib/testing.ts';
import robot, { entryProblem, ERROR_COLUMNS, ERROR_ROWS_KEPT, NO_DATE_ERROR } from './robot.ts';

/**
 * The streaming path on generated text FIEs big enough to span many chunks, against the in-memory path
 * (decodeFie on the whole file, toA3SyncRecord per entry): the workbook must hold the same cells.
 * Uploads stream in odd-sized chunks (cut inside lines, between CR and LF) and throw if `data` is read.
 */

const SURNAMES = ['GARCÍA', 'MUÑOZ', 'IBÁÑEZ', 'DE LA PEÑA', 'LÓPEZ'];
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Entry `index`: leaves and altas of five contingencies, some short, some cancelled, some with invalid dates. */
function entry(index: number, invalidEvery: number, invalidPerEntry = 1): FieRawValues {
  const company = index % 37;
  const day = 1 + (index % 28);
  const dni = (index * 7_919) % 100_000_000;
  const letter = 'TRWAGMYFPDXBNJZSQVHLCKE'[dni % 23] ?? 'T';
  const invalid = invalidEvery > 0 && index % invalidEvery === 0;
  const discharged = index % 3 === 0;
  return {
    310: `${pad(1 + (company % 52), 2)}${pad((company * 104_729) % 10_000_000, 7)}${pad(company % 97, 2)}`,
    530: `EMPRESA ${company} PEÑA SL`,
    670: `${pad(dni, 8)}${letter}`.padStart(14, '0'),
    820: SURNAMES[index % SURNAMES.length],
    840: 'MARÍA',
    1020: invalid ? '20250231' : `2025${pad(1 + (index % 12), 2)}${pad(day, 2)}`,
    1060: pad(index % 40, 4),
    1090: String(1 + (index % 5)),
    1100: index % 2 === 0 ? 'S' : 'N',
    1150: discharged ? `2025${pad(1 + (index % 12), 2)}${pad(Math.min(28, day + (index % 4)), 2)}` : '00000000',
    1160: discharged ? '01' : '',
    1170: index % 11 === 0 ? 'S' : 'N',
    ...(invalid && invalidPerEntry > 1 && { 1040: '20251340' }),
  };
}

function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

function generatedFie(entries: number, invalidEvery: number, invalidPerEntry = 1): Uint8Array {
  return latin1(encodeFieFile({ entries: Array.from({ length: entries }, (_, index) => entry(index, invalidEvery, invalidPerEntry)), newline: '\r\n' }));
}

interface StreamedFile extends RobotFile {
  /** Chunks handed out so far, over every stream() call. */
  readonly chunksTaken: number;
}

/** An upload that only streams, in chunks of `chunkBytes` (copies, as a file stream gives). */
function streamed(name: string, bytes: Uint8Array, chunkBytes: number): StreamedFile {
  let chunksTaken = 0;
  return {
    name,
    size: bytes.length,
    get data(): Uint8Array {
      throw new Error(`«${name}»: the robot read the whole file`);
    },
    async *stream() {
      for (let at = 0; at < bytes.length; at += chunkBytes) {
        chunksTaken += 1;
        await Promise.resolve();
        yield bytes.slice(at, at + chunkBytes);
      }
    },
    get chunksTaken() {
      return chunksTaken;
    },
  };
}

function sheetRows(data: Uint8Array | XLSX.WorkBook | undefined, sheetName: string): unknown[][] {
  const workbook = data === undefined || data instanceof Uint8Array ? XLSX.read(data ?? new Uint8Array(), { type: 'array' }) : data;
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) throw new Error(`No sheet ${sheetName}`);
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
}

/**
 * The in-memory path: the whole file decoded, the row of every entry with a valid date, then in 'Errores'
 * every diagnostic followed by the entries left out for want of a date.
 */
function inMemory(name: string, bytes: Uint8Array) {
  const document = decodeFie(bytes);
  const records = document.entries.map((fieEntry) => ({ record: toA3SyncRecord(fieEntry, { fieId: name }), fieEntry }));
  const rows = records.filter(({ record, fieEntry }) => entryProblem(fieEntry, record) === null).map(({ record, fieEntry }) => incidenciasRow(record, fieEntry));
  const undated = records.flatMap(({ record, fieEntry }) => {
    const problem = entryProblem(fieEntry, record);
    return problem === null ? [] : [[name, null, NO_DATE_ERROR, problem]];
  });
  const labels: Record<string, string> = { 'invalid-value': 'Valor no válido' };
  const diagnostics = document.diagnostics.map((diagnostic) => [name, diagnostic.line, labels[diagnostic.kind] ?? diagnostic.kind, diagnostic.detail]);
  const canceled = records.filter(({ record, fieEntry }) => record.canceled && entryProblem(fieEntry, record) === null).length;
  return { document, rows, undated, canceled, errors: [...diagnostics, ...undated] };
}

const ENTRIES = 20_000;

describe('fie-incidencias-a3 streaming', () => {
  /** One run on a generated 20,000-entry FIE (about 4 MB), checked by the tests below. SheetJS takes ~2 s to read it back. */
  let big: Uint8Array;
  let run: RecordedRun;
  let expected: ReturnType<typeof inMemory>;
  let workbook: XLSX.WorkBook;
  beforeAll(async () => {
    big = generatedFie(ENTRIES, 7);
    run = await runRobot(robot, { files: { fies: [streamed('grande.fie', big, 65_537)] } });
    expected = inMemory('grande.fie', big);
    workbook = XLSX.read(run.result.outputs[0]?.data ?? new Uint8Array(), { type: 'array', dense: true });
  }, 20_000);

  it('writes every cell of the in-memory path for a 20,000-entry FIE read in chunks', () => {
    const { result, logs } = run;
    const charged = expected.rows.length;
    const { undated, canceled } = expected;
    expect(expected.document.entries).toHaveLength(ENTRIES);
    // Leaves dated 31/02 have no valid date; altas among them keep theirs (the alta date).
    expect(undated.length).toBeGreaterThan(1_000);
    expect(charged + undated.length).toBe(ENTRIES);
    expect(expected.errors.length).toBeGreaterThan(2_000);
    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(charged);
    expect(workbook.SheetNames).toEqual(['Incidencias', 'Errores']);
    expect(sheetRows(workbook, 'Incidencias')).toEqual([[...INCIDENCIAS_HEADER], ...expected.rows]);
    expect(sheetRows(workbook, 'Errores')).toEqual([[...ERROR_COLUMNS], ...expected.errors]);
    expect(canceled).toBeGreaterThan(0);
    expect(result.summary).toEqual({
      'FIE leídos': 1, 'FIE no leídos': 0, Partes: charged, 'Partes sin fecha': undated.length, Anulados: canceled, Errores: expected.errors.length,
    });
    expect(logs).toContainEqual({ level: 'info', text: `«grande.fie» (FIE4): ${ENTRIES} partes.` });
    expect(logs).toContainEqual({ level: 'info', text: `${charged} partes en «Incidencias» (${canceled} anulados); ${expected.errors.length} en «Errores».` });
  });

  it('reports progress while the file is read, out of a total guessed from its size, ending on the partes passed of those read', () => {
    const { progress } = run;
    expect(progress.length).toBeGreaterThan(100);
    // The last report is the run's figures: the partes in 'Incidencias' of the partes read (issue 43, 2).
    expect(progress.at(-1)).toEqual([expected.rows.length, ENTRIES]);
    for (const [index, [done, total]] of progress.slice(0, -1).entries()) {
      expect(done).toBeLessThanOrEqual(total);
      if (index > 0) expect(done).toBeGreaterThanOrEqual(progress[index - 1]?.[0] ?? 0);
    }
    // Before a chunk has ended: the file's size over SILTRA's padded entry size (these lines are not padded).
    const [, firstTotal = 0] = progress[0] ?? [];
    expect(Math.abs(firstTotal - ENTRIES) / ENTRIES).toBeLessThan(0.5);
    // Then the bytes per entry of the chunks read.
    const [, midTotal = 0] = progress[Math.floor(progress.length / 2)] ?? [];
    expect(Math.abs(midTotal - ENTRIES) / ENTRIES).toBeLessThan(0.05);
  });

  it('stops while a big file is read, without reading the rest of it', async () => {
    const file = streamed('grande.fie', big, 65_537);
    const { result } = await runRobot(robot, { files: { fies: [file] }, stopAfter: 1_000 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
    expect(file.chunksTaken).toBeLessThan(Math.ceil(big.length / 65_537) / 2);
  });

  it(`keeps the first ${ERROR_ROWS_KEPT} rows of Errores and counts the rest in a last row`, async () => {
    const bytes = generatedFie(5_100, 1, 2); // two invalid dates per entry: 10,200 errors, and the 3,400 leaves without a date
    const expected = inMemory('errores.fie', bytes);
    const omitted = expected.errors.length - ERROR_ROWS_KEPT;
    expect(expected.undated).toHaveLength(3_400);
    expect(omitted).toBe(3_600);

    const { result, logs } = await runRobot(robot, { files: { fies: [streamed('errores.fie', bytes, 100_003)] } });

    expect(result.result).toBe('Success');
    const errores = XLSX.read(result.outputs[0]?.data ?? new Uint8Array(), { type: 'array', dense: true, sheets: 'Errores' });
    expect(sheetRows(errores, 'Errores')).toEqual([
      [...ERROR_COLUMNS],
      ...expected.errors.slice(0, ERROR_ROWS_KEPT),
      [null, null, 'Más errores', `3600 errores más, que no caben en esta hoja (tiene los ${ERROR_ROWS_KEPT} primeros).`],
    ]);
    expect(result.summary).toMatchObject({ Partes: 1_700, 'Partes sin fecha': 3_400, Errores: 13_600 });
    expect(result.usageUnits).toBe(1_700);
    expect(logs).toContainEqual({ level: 'warn', text: `13600 errores: «Errores» tiene los ${ERROR_ROWS_KEPT} primeros y una última fila con cuántos faltan.` });
    expect(logs).toContainEqual({ level: 'warn', text: '… y 13550 avisos más (están todos en el archivo de resultado).' });
  });

  it('reads a file picked twice once, comparing the streams chunk by chunk, and reads a file of the same size that differs', async () => {
    const bytes = generatedFie(300, 0);
    const changed = bytes.slice();
    changed[changed.length - 300] = 0x20 ^ (changed[changed.length - 300] === 0x20 ? 1 : 0); // same size, one byte off near the end
    const first = streamed('enero.fie', bytes, 4_099);
    const copy = streamed('copia.fie', bytes, 1_000);
    const other = streamed('otro.fie', changed, 7_777);

    const { result, logs } = await runRobot(robot, { files: { fies: [first, copy, other] } });

    expect(result.result).toBe('Success');
    expect(logs).toContainEqual({ level: 'warn', text: '«copia.fie» es el mismo archivo que otro de los subidos: se lee una sola vez.' });
    expect(logs).toContainEqual({ level: 'info', text: 'Se han procesado 2 FIEs.' });
    expect(logs).toContainEqual({ level: 'info', text: 'Un archivo se ha añadido anteriormente.' });
    expect(result.summary).toMatchObject({ 'FIE leídos': 2, Partes: 600 });
    const rows = sheetRows(result.outputs[0]?.data, 'Incidencias');
    expect(rows.slice(1).map((row) => row[0])).toEqual([...Array<string>(300).fill('enero.fie'), ...Array<string>(300).fill('otro.fie')]);
  });

  it('stops reading a text file once its header says it is not a FIE', async () => {
    const notFie = latin1(`HOLA\r\n${'x'.repeat(300_000)}\r\n`);
    const file = streamed('notas.txt', notFie, 1_000);
    const { result, logs } = await runRobot(robot, { files: { fies: [file] } });
    expect(result).toMatchObject({ result: 'WrongInput', message: 'Este archivo no se ha podido procesar. No hay ningún parte que pasar a A3.' });
    expect(logs).toContainEqual({ level: 'error', text: 'Error al procesar un FIE [texto]: «notas.txt». El archivo no empieza por la cabecera ETI de un FIE.' });
    expect(file.chunksTaken).toBe(1);
  });
});
