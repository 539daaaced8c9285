/**
 * FIE a incidencias A3 (issue 19): the robot on generated text FIEs of 10,000 and 100,000 entries
 * (`--big` adds 1,000,000: 337 MB), each case in its own Node process with the robot process's flags
 * (server/child-command.ts robotHeapFlags: a 1 GB heap, 4 MB semi-spaces), given a RobotFile that streams from disk as the server's run process
 * gives it (256 KiB chunks; reading `data` throws), its output written to a file through context.output
 * as the run process writes it (issue 42; the goal: ≤ 200 MB peak RSS at 1,000,000 entries). Printed per case: entries/s, seconds, peak RSS, and
 * the peak heap used per entry, sampled at every progress report (flat across sizes is the goal: what
 * grows is the deflated output, ~66 bytes an entry), and what is still held per entry after a full GC
 * at the end (the output's bytes). Memory is the JS heap plus ArrayBuffers (the output's deflated chunks
 * and the read stream's buffers live outside the heap). Beside it, the floor every streaming run pays: the
 * same file read in the same chunks, Latin-1 decoded and split into lines, and an XlsxWriter writing as
 * many rows of the same width (1,000 real A3 rows of the file, in turn: identical rows would deflate
 * unrealistically fast).
 * Then a FIE saved as an .xlsx (shared/fie/sample-workbook.ts: a year's export, 100,000 rows, 18 MB;
 * `--big` adds 500,000, 92 MB, under the upload's 100 MB): the robot, which reads it row by row
 * (streamFieXlsx), beside the path it replaced, SheetJS reading the whole workbook (decodeFieSpreadsheet)
 * before the same rows are written, in the same 1 GB heap.
 * `npx tsx scripts/bench/fie-robot-bench.ts [--big]` runs it alone; runFieRobotBench() is its interface.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import { decodeFie, decodeLatin1 } from '#shared/fie/index.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { CellValue } from '#shared/spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { INCIDENCIAS_HEADER, INCIDENCIAS_KINDS, incidenciasRow } from '#shared/a3/incidences-sheet.ts';
import robot from '../../resources/flows/fie-incidencias-a3/robot.ts';
import { robotHeapFlags } from '../../server/child-command.ts';
import { OutputStaging } from '../../server/modules/storage/staged-outputs.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import { sampleFieWorkbook } from '#shared/fie/sample-workbook.ts';
import { writeSampleFie } from './fie-sample.ts';
import { benchMain } from './bench-main.ts';

const SIZES = [10_000, 100_000];
const BIG_SIZE = 1_000_000;
const XLSX_SIZES = [100_000];
const BIG_XLSX_SIZE = 500_000;
const CHUNK_BYTES = 256 * 1024;
const HEAP_LIMIT_MB = 1024;
const FILE_NAME = 'fie.txt';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

interface ChildResult {
  entries: number;
  seconds: number;
  maxRssMb: number;
  /** Heap + ArrayBuffers before the run, after a full GC. */
  baseHeapMb: number;
  /** The most heap + ArrayBuffers seen during the run (sampled at each progress report, or every 1,000 rows). */
  peakHeapMb: number;
  /** Heap + ArrayBuffers after the run and a full GC, with the output still held. */
  endHeapMb: number;
  outputMb: number;
}

const mb = (bytes: number) => bytes / 1_000_000;

/** What the run holds: the JS heap and the ArrayBuffers outside it. */
function heldBytes(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Held bytes after full GCs (the children run with --expose-gc), with a turn of the event loop between so closed streams let go of their buffers. */
async function heldAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
  return heldBytes();
}

/** The upload as run-process.ts gives it: a read stream of the path and its size; `data` is never read. */
function streamedUpload(path: string): RobotFile {
  return {
    name: FILE_NAME,
    size: statSync(path).size,
    get data(): Uint8Array {
      throw new Error('El robot ha leído el archivo entero (data) en lugar de su flujo');
    },
    stream: () => createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>,
  };
}

/** The robot as the server's run process runs it: its output written to a file as it is made (context.output, issue 42). */
async function robotChild(path: string): Promise<ChildResult> {
  const folder = mkdtempSync(join(tmpdir(), 'fie-robot-bench-salida-'));
  const staging = new OutputStaging(folder);
  const baseHeap = await heldAfterGc();
  let peakHeap = baseHeap;
  const started = performance.now();
  const result = await robot.run({
    output: (name) => staging.open(name),
    inputs: {},
    files: { fies: [streamedUpload(path)] },
    log: () => {},
    progress: () => {
      peakHeap = Math.max(peakHeap, heldBytes());
    },
    signal: { aborted: false, addEventListener: () => {} },
    startedAt: new Date(),
  });
  const seconds = (performance.now() - started) / 1000;
  peakHeap = Math.max(peakHeap, heldBytes());
  const endHeap = await heldAfterGc();
  if (result.result !== 'Success') throw new Error(`El robot terminó con ${result.result}: ${result.message ?? ''}`);
  const outputBytes = staging.closed()[0]?.size ?? result.outputs[0]?.data.length ?? 0;
  rmSync(folder, { recursive: true, force: true });
  return {
    entries: result.usageUnits,
    seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    baseHeapMb: mb(baseHeap),
    peakHeapMb: mb(peakHeap),
    endHeapMb: mb(endHeap),
    outputMb: mb(outputBytes),
  };
}

/** 1,000 real rows of the generated file, as the robot writes them. */
function sampleRows(): CellValue[][] {
  const text = [...sampleFieChunks(1_000)].join('');
  return decodeFie(text).entries.map((entry) => incidenciasRow(toA3SyncRecord(entry, { fieId: FILE_NAME }), entry));
}

async function floorChild(path: string, entries: number): Promise<ChildResult> {
  const rows = sampleRows();
  const baseHeap = await heldAfterGc();
  let peakHeap = baseHeap;
  const started = performance.now();
  let lines = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    const text = decodeLatin1(chunk);
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  }
  const book = new XlsxWriter();
  const sheet = book.addSheet('Incidencias', INCIDENCIAS_HEADER.map(() => 14), INCIDENCIAS_KINDS);
  sheet.row(INCIDENCIAS_HEADER);
  for (let row = 0; row < entries; row += 1) {
    sheet.row(rows[row % rows.length] ?? []);
    if (row % 1_000 === 0) peakHeap = Math.max(peakHeap, heldBytes());
  }
  sheet.end();
  const errors = book.addSheet('Errores');
  errors.row(['Archivo', 'Línea', 'Error', 'Detalle']);
  errors.end();
  const output = book.finish();
  const seconds = (performance.now() - started) / 1000;
  peakHeap = Math.max(peakHeap, heldBytes());
  const endHeap = await heldAfterGc();
  if (lines === 0) throw new Error('El suelo no ha leído ninguna línea');
  return { entries, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, baseHeapMb: mb(baseHeap), peakHeapMb: mb(peakHeap), endHeapMb: mb(endHeap), outputMb: mb(output.length) };
}

/** Before streamFieXlsx: the whole workbook read by SheetJS, then a row per entry (the robot's path until then). */
async function sheetJsChild(path: string): Promise<ChildResult> {
  const baseHeap = await heldAfterGc();
  const started = performance.now();
  const document = decodeFie(new Uint8Array(readFileSync(path)), { format: 'spreadsheet' });
  let peakHeap = heldBytes();
  const book = new XlsxWriter();
  const sheet = book.addSheet('Incidencias', INCIDENCIAS_HEADER.map(() => 14), INCIDENCIAS_KINDS);
  sheet.row(INCIDENCIAS_HEADER);
  for (const entry of document.entries) sheet.row(incidenciasRow(toA3SyncRecord(entry, { fieId: FILE_NAME }), entry));
  sheet.end();
  const output = book.finish();
  const seconds = (performance.now() - started) / 1000;
  peakHeap = Math.max(peakHeap, heldBytes());
  const endHeap = await heldAfterGc();
  return { entries: document.entries.length, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, baseHeapMb: mb(baseHeap), peakHeapMb: mb(peakHeap), endHeapMb: mb(endHeap), outputMb: mb(output.length) };
}

function runChild(mode: 'robot' | 'floor' | 'sheetjs', path: string, entries: number): ChildResult | string {
  try {
    // The robot's process flags as the server starts it (server/child-command.ts robotHeapFlags).
    const output = execFileSync(process.execPath, [...robotHeapFlags(HEAP_LIMIT_MB), '--expose-gc', '--import', 'tsx', SELF, '--child', mode, path, String(entries)], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildResult;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    return /heap out of memory|Allocation failed/i.test(stderr) ? `sin memoria (--max-old-space-size=${HEAP_LIMIT_MB})` : `falló: ${stderr.trim().split('\n').slice(-3).join(' ') || String(error)}`;
  }
}

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

/** Bytes per entry of a figure in MB above the start. */
function perEntry(result: ChildResult, megabytes: number): string {
  return `${whole.format(((megabytes - result.baseHeapMb) * 1_000_000) / result.entries)} B/entrada`;
}

function figures(result: ChildResult): string {
  return (
    `${whole.format(result.entries / result.seconds)} entradas/s, ${number.format(result.seconds)} s, pico RSS ${whole.format(result.maxRssMb)} MB; ` +
    `heap+ArrayBuffers: pico ${whole.format(result.peakHeapMb)} MB (${perEntry(result, result.peakHeapMb)}), retenido al final ${perEntry(result, result.endHeapMb)} ` +
    `(la salida, ${number.format(result.outputMb)} MB, son ${whole.format((result.outputMb * 1_000_000) / result.entries)} B/entrada)`
  );
}

export async function runFieRobotBench(args: readonly string[] = process.argv.slice(2)): Promise<string[]> {
  const sizes = args.includes('--big') ? [...SIZES, BIG_SIZE] : SIZES;
  const directory = mkdtempSync(join(tmpdir(), 'fie-robot-bench-'));
  const lines = [
    `FIE a incidencias A3 (robot en flujo, un proceso por caso con ${robotHeapFlags(HEAP_LIMIT_MB).join(' ')}, archivo leído del disco en trozos de 256 KiB):`,
  ];
  try {
    for (const entries of sizes) {
      const path = join(directory, `fie-${entries}.txt`);
      const bytes = await writeSampleFie(path, entries);
      const ours = runChild('robot', path, entries);
      const floor = runChild('floor', path, entries);
      rmSync(path, { force: true });
      lines.push(`  ${whole.format(entries)} entradas (${number.format(mb(bytes))} MB):`);
      if (typeof ours === 'string') lines.push(`    robot: ${ours}`);
      else {
        if (ours.entries !== entries) throw new Error(`FIE robot bench: se esperaban ${entries} partes y el robot escribió ${ours.entries}`);
        const verdict = ours.maxRssMb <= 1024 ? '≤ 1 GB' : '> 1 GB';
        lines.push(`    robot: ${figures(ours)}; RSS ${verdict}`);
      }
      if (typeof floor === 'string') lines.push(`    suelo: ${floor}`);
      else {
        const share = typeof ours === 'string' ? '' : `; el robot va al ${whole.format((100 * floor.seconds) / ours.seconds)} % del suelo`;
        lines.push(`    suelo (Latin-1 + líneas + XlsxWriter de las mismas filas): ${figures(floor)}${share}`);
      }
    }
    lines.push('  FIE guardado como .xlsx (exportación de un año: título, cabecera por códigos, fechas como números), mismo heap de 1 GB:');
    for (const entries of args.includes('--big') ? [...XLSX_SIZES, BIG_XLSX_SIZE] : XLSX_SIZES) {
      const path = join(directory, `fie-${entries}.xlsx`);
      const data = sampleFieWorkbook(entries);
      writeFileSync(path, data);
      const ours = runChild('robot', path, entries);
      const before = runChild('sheetjs', path, entries);
      rmSync(path, { force: true });
      lines.push(`  ${whole.format(entries)} entradas (.xlsx de ${number.format(mb(data.length))} MB):`);
      const verdict = (result: ChildResult | string) => (typeof result === 'string' ? result : `${figures(result)}; RSS ${result.maxRssMb <= 1024 ? '≤' : '>'} 1 GB`);
      lines.push(`    robot, fila a fila (streamFieXlsx): ${verdict(ours)}`, `    antes, SheetJS con el libro entero: ${verdict(before)}`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return lines;
}

await benchMain(import.meta.url, () => runFieRobotBench(), ([mode = '', path = '', entries = '0']) =>
  mode === 'robot' ? robotChild(path) : mode === 'sheetjs' ? sheetJsChild(path) : floorChild(path, Number(entries)),
);
