import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { sampleFieWorkbook } from '#shared/fie/sample-workbook.ts';
import { writeSampleFie } from './bench/fie-sample.ts';

const ROOT = join(import.meta.dirname, '..');
const directory = mkdtempSync(join(tmpdir(), 'fie-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function runCli(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'scripts/fie-cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `decode path` with a 32 MB heap, its NDJSON written to `outPath` (not held by the test's pipe): the lines. */
function decodeInSmallHeap(path: string, outPath: string): string[] {
  const out = openSync(outPath, 'w');
  const result = spawnSync('npx', ['tsx', 'scripts/fie-cli.ts', 'decode', path], {
    cwd: ROOT,
    stdio: ['ignore', out, 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=32' },
  });
  closeSync(out);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return readFileSync(outPath, 'utf8').trimEnd().split('\n');
}

interface FileLine {
  kind: 'file';
  file: string;
  format: string;
  version: string | null;
  ignored: boolean;
  reason?: string;
  registryDate: string | null;
}
interface EntryLine {
  kind: 'entry';
  file: string;
  type: string;
  nif: string | null;
  idType: string | null;
  fullname: string;
  fields: Record<string, { value: string }>;
  a3: { incidencia: number | null; formatedccc: string | null };
}
interface EndLine {
  kind: 'end';
  file: string;
  entries: number;
  diagnostics: number;
  registryDate: string | null;
}
type Line = FileLine | EntryLine | EndLine;

/** NDJSON: one JSON object per line, every line ended by \n. */
function parseLines(stdout: string): Line[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
}

/** The lines of each file: its file line, its entry lines, its end line, in that order. */
function byFile(lines: readonly Line[]): Array<{ head: FileLine; entries: EntryLine[]; end: EndLine }> {
  const files: Array<{ head: FileLine; entries: EntryLine[]; end: EndLine }> = [];
  let index = 0;
  while (index < lines.length) {
    const head = lines[index] as FileLine;
    expect(head.kind).toBe('file');
    const entries: EntryLine[] = [];
    for (index += 1; lines[index]?.kind === 'entry'; index += 1) entries.push(lines[index] as EntryLine);
    const end = lines[index] as EndLine;
    expect(end).toMatchObject({ kind: 'end', file: head.file, entries: entries.length });
    expect(entries.every((entry) => entry.file === head.file)).toBe(true);
    files.push({ head, entries, end });
    index += 1;
  }
  return files;
}

describe('fie CLI', () => {
  it('decodes text (Latin-1) and spreadsheet files to NDJSON: a file line, one line per entry, an end line; exit 0', () => {
    const fixture = readFileSync(join(ROOT, 'shared/fie/fixtures/synthetic-fie4.txt'), 'latin1');
    const textPath = join(directory, 'siltra.msj');
    writeFileSync(textPath, fixture.replace('GARCIA', 'MUÑOZ '), 'latin1');
    const ignoredPath = join(directory, 'otro.txt');
    writeFileSync(ignoredPath, 'no es un FIE\n');
    const sheetPath = join(directory, 'fier.bin'); // no known extension: detected by its zip magic
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['100', '670', '1020', '1090'], ['20250115', 'X1234567L', '20250110', '3']]), 'FIE');
    writeFileSync(sheetPath, new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer));

    const { status, stdout } = runCli('decode', textPath, ignoredPath, sheetPath);
    expect(status).toBe(0);
    const [text, ignored, sheet] = byFile(parseLines(stdout));
    expect(text?.head).toEqual({ kind: 'file', file: textPath, format: 'text', version: 'FIE4', ignored: false, registryDate: '15/01/2025' });
    expect(text?.entries.map((entry) => [entry.type, entry.nif, entry.idType, entry.a3.incidencia])).toEqual([
      ['cit', '12345678Z', 'DNI', 2],
      ['alta', 'X1234567L', 'NIE', 7],
    ]);
    expect(text?.entries[0]?.fullname).toBe('MARIA MUÑOZ LOPEZ');
    expect(text?.entries[0]?.a3.formatedccc).toBe('28/1234567/89');
    expect(text?.entries[0]?.fields['670']?.value).toBe('0000012345678Z');
    expect(text?.end).toEqual({ kind: 'end', file: textPath, entries: 2, diagnostics: 0, registryDate: '15/01/2025' });
    expect(ignored?.head).toMatchObject({ format: 'text', ignored: true, version: null, reason: 'El archivo no empieza por la cabecera ETI de un FIE' });
    expect(ignored?.entries).toEqual([]);
    // An .xlsx is read row by row: its registry date, over all its rows, comes on its end line.
    expect(sheet?.head).toMatchObject({ format: 'spreadsheet', version: null, ignored: false, registryDate: null });
    expect(sheet?.entries[0]).toMatchObject({ nif: 'X1234567L', type: 'baja', a3: { incidencia: 3 } });
    expect(sheet?.end).toEqual({ kind: 'end', file: sheetPath, entries: 1, diagnostics: 0, registryDate: '15/01/2025' });
  });

  it('exits 2 with a Spanish message when a path cannot be read, before writing anything', () => {
    const missing = join(directory, 'no-existe.txt');
    const { status, stdout, stderr } = runCli('decode', join(ROOT, 'shared/fie/fixtures/synthetic-fie4.txt'), missing, directory);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`No se puede leer el archivo "${missing}": no existe.`);
    expect(stderr).toContain(`No se puede leer el archivo "${directory}": es una carpeta.`);
  });

  it('streams: 30,000 entries (10 MB) decode with a 32 MB heap, which the whole document would not fit in', async () => {
    const path = join(directory, 'grande.fie');
    await writeSampleFie(path, 30_000);
    const lines = decodeInSmallHeap(path, join(directory, 'grande.ndjson'));
    expect(lines).toHaveLength(30_002);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ kind: 'file', version: 'FIE4', ignored: false, registryDate: '15/01/2025' });
    expect(JSON.parse(lines[30_000] ?? '')).toMatchObject({ kind: 'entry', type: 'baja', idType: 'DNI' });
    expect(JSON.parse(lines[30_001] ?? '')).toEqual({ kind: 'end', file: path, entries: 30_000, diagnostics: 0, registryDate: '15/01/2025' });
  }, 120_000);

  it('streams an .xlsx export too: 10,000 rows decode with a 32 MB heap (SheetJS holds the whole workbook)', () => {
    const path = join(directory, 'anual.xlsx');
    writeFileSync(path, sampleFieWorkbook(10_000));
    const lines = decodeInSmallHeap(path, join(directory, 'anual.ndjson'));
    expect(lines).toHaveLength(10_002);
    expect(JSON.parse(lines[10_001] ?? '')).toEqual({ kind: 'end', file: path, entries: 10_000, diagnostics: 0, registryDate: '15/01/2025 • 15/12/2025' });

    // Broken at row 900: the entries before it, every one flushed, and an end line that says so.
    const files = unzipSync(sampleFieWorkbook(1_000));
    files['xl/worksheets/sheet1.xml'] = strToU8(strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array()).replace('<row r="900"', '<row r="900" <roto'));
    const brokenPath = join(directory, 'rota.xlsx');
    writeFileSync(brokenPath, zipSync(files));
    const broken = runCli('decode', brokenPath);
    expect(broken.status).toBe(0);
    const brokenLines = parseLines(broken.stdout);
    // Rows 3 to 899, under the title and the header.
    expect(brokenLines.at(-1)).toMatchObject({ kind: 'end', entries: 897, registryDate: null, damaged: expect.stringContaining('La hoja «Partes» está dañada') });
    expect(brokenLines.filter((line) => line.kind === 'entry')).toHaveLength(897);
    expect(broken.stderr).toContain('Solo se han leído sus 897 primeros partes.');
  }, 120_000);
});
