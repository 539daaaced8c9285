/**
 * Validar identificadores on a generated workers' workbook (resources/flows/validar-identificadores/
 * sample.ts: NIF, NAF, IBAN, CCC, names; text in the shared string table as Excel writes it) of
 * 100,000 rows, `--big` adds 1,000,000 (issue 19). Each case in its own Node process, so its peak RSS
 * is its own:
 *  - ours: the robot as it runs (an .xlsx that large streams: stream.ts), heap capped at 1 GB, its output
 *    written through context.output to a file as the server's run process writes it (issue 42)
 *  - output in memory: the same robot given no context.output, so its output comes back as bytes in the
 *    result, as every robot did before issue 42 (side by side, same file)
 *  - floor: what any streamed rewrite must do with these libraries: the shared strings and the sheet
 *    read with fflate + saxes (ZipReader, sheetRowsHandlers), every row written again with XlsxWriter
 *  - before: the SheetJS in-memory path (validateInMemory), 100,000 rows only (SheetJS needs 2.7 GB
 *    for 500,000), heap 4 GB
 * `npx tsx scripts/bench/validar-bench.ts [--big]` runs it alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { RobotContext, RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { sharedStringsHandlers, sheetRowsHandlers, type RawCell } from '#shared/spreadsheet/sheet-rows.ts';
import type { CellValue } from '#shared/spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { ZipReader } from '#shared/spreadsheet/zip-reader.ts';
import robot, { validateInMemory } from '../../resources/flows/validar-identificadores/robot.ts';
import { OutputStaging } from '../../server/modules/storage/staged-outputs.ts';
import { sampleWorkbook } from '../../resources/flows/validar-identificadores/sample.ts';
import { benchMain } from './bench-main.ts';
import { robotHeapFlags } from '../../server/child-command.ts';

const ROWS = 100_000;
const BIG_ROWS = 1_000_000;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

interface ChildResult {
  seconds: number;
  rows: number;
  outputBytes: number;
  maxRssMb: number;
}

function context(file: RobotFile, staging?: OutputStaging): RobotContext {
  return {
    ...(staging && { output: (name: string) => staging.open(name) }),
    inputs: {},
    files: { workbook: [file] },
    startedAt: new Date('2025-03-14T09:30:00Z'),
    signal: { aborted: false, addEventListener() {} },
    log() {},
    progress() {},
  };
}

/** The floor: read every cell of the first sheet (shared strings by index) and write the same rows again. */
async function floor(data: Uint8Array): Promise<{ rows: number; bytes: Uint8Array }> {
  const zip = ZipReader.open(data);
  const strings: string[] = [];
  await zip.readXml('xl/sharedStrings.xml', sharedStringsHandlers((_index, text) => strings.push(text)));
  const book = new XlsxWriter();
  const sheet = book.addSheet('Plantilla');
  let rows = 0;
  const value = (cell: RawCell): CellValue =>
    cell.type === 's' ? strings[Number(cell.value)] : cell.type === null || cell.type === 'n' ? (cell.value === undefined ? null : Number(cell.value)) : (cell.value ?? cell.inlineText ?? null);
  await zip.readXml(
    'xl/worksheets/sheet1.xml',
    sheetRowsHandlers({
      row(row) {
        rows += 1;
        const values: CellValue[] = [];
        for (const cell of row.cells) values[cell.column] = value(cell);
        sheet.row(values);
      },
    }),
  );
  sheet.end();
  return { rows, bytes: book.finish() };
}

async function child(mode: string, path: string): Promise<ChildResult> {
  const buffer = readFileSync(path);
  const file: RobotFile = { name: 'plantilla.xlsx', data: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length) };
  const started = performance.now();
  let rows = 0;
  let outputBytes = 0;
  if (mode === 'floor') {
    const result = await floor(file.data);
    rows = result.rows;
    outputBytes = result.bytes.length;
  } else if (mode === 'ours') {
    const folder = mkdtempSync(join(tmpdir(), 'validar-bench-salida-'));
    try {
      const staging = new OutputStaging(folder);
      const result = await robot.run(context(file, staging));
      if (result.result !== 'Success') throw new Error(`Validar bench: ${mode} terminó con ${result.result}: ${result.message ?? ''}`);
      rows = Number(result.summary?.['Filas revisadas'] ?? 0);
      const [written] = staging.closed();
      outputBytes = written === undefined ? 0 : statSync(written.path).size;
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  } else {
    const result: RobotResult = mode === 'memory' ? await robot.run(context(file)) : await validateInMemory(context(file), file);
    if (result.result !== 'Success') throw new Error(`Validar bench: ${mode} terminó con ${result.result}: ${result.message ?? ''}`);
    rows = Number(result.summary?.['Filas revisadas'] ?? 0);
    outputBytes = result.outputs[0]?.data.length ?? 0;
  }
  return { seconds: (performance.now() - started) / 1000, rows, outputBytes, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function runChild(mode: string, path: string, heapMb: number): ChildResult {
  // Every case with the robot process's flags (server/child-command.ts robotHeapFlags), so they differ only by their code.
  const output = execFileSync(process.execPath, [...robotHeapFlags(heapMb), '--import', 'tsx', SELF, '--child', mode, path], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

function caseLines(rows: number, path: string, bytes: number, before: boolean): string[] {
  const ours = runChild('ours', path, 1024);
  const inMemory = runChild('memory', path, 1024);
  const base = runChild('floor', path, 1024);
  const rate = (result: ChildResult) => result.rows / result.seconds;
  const line = (label: string, result: ChildResult) =>
    `  ${label}: ${number.format(result.seconds)} s, ${whole.format(rate(result))} filas/s, pico RSS ${whole.format(result.maxRssMb)} MB, resultado ${number.format(result.outputBytes / 1e6)} MB`;
  const lines = [
    `Validar identificadores: ${whole.format(rows)} filas (NIF, NAF, IBAN, CCC, nombres; textos compartidos como los escribe Excel), .xlsx de ${number.format(bytes / 1e6)} MB`,
    line('nuestro, en flujo, salida al disco (context.output, heap 1 GB)', ours),
    line('el mismo con la salida en memoria (bytes en el resultado)     ', inMemory),
    line('suelo: fflate+saxes leen la hoja + XlsxWriter la escribe (1 GB)', base),
    `  nuestro = ${whole.format((100 * rate(ours)) / rate(base))} % del rendimiento del suelo (objetivo ≥ 50 %); pico RSS ${whole.format(ours.maxRssMb)} MB, ${whole.format((100 * ours.maxRssMb) / inMemory.maxRssMb)} % del de la salida en memoria${rows >= BIG_ROWS ? ` (objetivo ≤ 400 MB: ${ours.maxRssMb <= 400 ? 'cumplido' : 'NO cumplido'})` : ''}`,
  ];
  if (before) lines.push(line('antes: SheetJS en memoria (heap 4 GB)                        ', runChild('before', path, 4096)));
  return lines;
}

export async function runValidarBench(args: readonly string[] = process.argv.slice(2)): Promise<string[]> {
  const directory = mkdtempSync(join(tmpdir(), 'validar-bench-'));
  const lines: string[] = [];
  try {
    for (const rows of args.includes('--big') ? [ROWS, BIG_ROWS] : [ROWS]) {
      const path = join(directory, `plantilla-${rows}.xlsx`);
      const data = sampleWorkbook(rows);
      writeFileSync(path, data);
      lines.push(...caseLines(rows, path, data.length, rows === ROWS));
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return lines;
}

await benchMain(import.meta.url, () => runValidarBench(), ([mode = '', path = '']) => child(mode, path));
