import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';

const ROOT = join(import.meta.dirname, '..');
const directory = mkdtempSync(join(tmpdir(), 'fie-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function runCli(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'scripts/fie-cli.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface CliFile {
  file: string;
  version: string | null;
  ignored: boolean;
  reason?: string;
  registryDate: string | null;
  entries: Array<{ type: string; nif: string | null; idType: string | null; fullname: string; a3: { incidencia: number | null; formatedccc: string | null } }>;
}

describe('fie CLI', () => {
  it('decodes text (Latin-1) and spreadsheet files to one JSON object each, exit 0', () => {
    const fixture = readFileSync(join(ROOT, 'shared/fie/fixtures/synthetic-fie4.txt'), 'latin1');
    const textPath = join(directory, 'siltra.msj');
    writeFileSync(textPath, fixture.replace('GARCIA', 'MUÑOZ '), 'latin1');
    const ignoredPath = join(directory, 'otro.txt');
    writeFileSync(ignoredPath, 'no es un FIE\n');
    const sheetPath = join(directory, 'fier.bin'); // no known extension: detected by its zip magic
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['670', '1020', '1090'], ['X1234567L', '20250110', '3']]), 'FIE');
    writeFileSync(sheetPath, new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer));

    const { status, stdout } = runCli('decode', textPath, ignoredPath, sheetPath);
    expect(status).toBe(0);
    const [text, ignored, sheet] = JSON.parse(stdout) as CliFile[];
    expect(text).toMatchObject({ file: textPath, version: 'FIE4', ignored: false, registryDate: '15/01/2025' });
    expect(text?.entries.map((entry) => [entry.type, entry.nif, entry.idType, entry.a3.incidencia])).toEqual([
      ['cit', '12345678Z', 'DNI', 2],
      ['alta', 'X1234567L', 'NIE', 7],
    ]);
    expect(text?.entries[0]?.fullname).toBe('MARIA MUÑOZ LOPEZ');
    expect(text?.entries[0]?.a3.formatedccc).toBe('28/1234567/89');
    expect(ignored).toMatchObject({ ignored: true, entries: [], reason: 'El archivo no empieza por la cabecera ETI de un FIE' });
    expect(sheet).toMatchObject({ version: null, ignored: false });
    expect(sheet?.entries[0]).toMatchObject({ nif: 'X1234567L', type: 'baja', a3: { incidencia: 3 } });
  });

  it('exits 2 with a Spanish message when a path cannot be read', () => {
    const missing = join(directory, 'no-existe.txt');
    const { status, stdout, stderr } = runCli('decode', missing);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`No se puede leer el archivo "${missing}": no existe.`);
  });
});
