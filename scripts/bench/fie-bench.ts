/**
 * FIE decoding: the decoder's throughput on a generated 100,000-entry text file (33.7 MB, SILTRA's
 * fixed-width layout: scripts/bench/fie-sample.ts), beside what every decode must do anyway (Latin-1 to
 * text + line split) measured in the same run, and peak RSS. `--big` adds 1,000,000 entries (337 MB).
 * Each case runs in its own Node process, so its peak RSS is its own; throughputs are the best of
 * several runs in that process, after the first has warmed the JIT.
 *  - stream: FieTextStream fed by a file read stream (1 MiB reads, Buffer's latin1 in 64 KiB pieces:
 *    writeLatin1), each entry read through the slot view and dropped: how the streaming consumers use it
 *  - streamed / floor: the floor (Buffer latin1 of the whole file + splitFieLines) and the streamed decode
 *    in interleaved rounds in one process, so that the machine's load falls on both alike; the median of
 *    the rounds' ratios (issue 42's goal: ≥ 35 %)
 *  - memory: decodeFie(bytes) of the whole file (TextDecoder inside shared/), all entries kept
 *  - cli: `npm run fie -- decode` writing its NDJSON to /dev/null
 * `scripts/bench.ts` imports runFieBench(); `npx tsx scripts/bench/fie-bench.ts [--big]` runs it alone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { decodeFie, decodeLatin1, FieTextStream, splitFieLines } from '#shared/fie/index.ts';
import { FIE_READ_BYTES } from '#shared/fie/stream.ts';
import { writeSampleFie } from './fie-sample.ts';
import { benchMain } from './bench-main.ts';

const ENTRIES = 100_000;
const BIG_ENTRIES = 1_000_000;
/** Interleaved rounds of the floor and the streamed decode. */
const PAIR_ROUNDS = 9;
/** Aon's FieParser (Java), the only open-source FIE parser, as measured for issue 19 on this kind of machine. */
const JAVA_PEER_MB_S = 13.7;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** Best of `runs` timings in seconds (the first run also warms the JIT up). A full GC before each run (the
 * children run with --expose-gc), so that a run neither pays for the last one's garbage nor adds it to the peak. */
async function best(runs: number, work: () => unknown): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest / 1000;
}

/** One streamed decode of a file, as the consumers read it (through the slot view); returns the entries seen. */
async function streamFile(path: string): Promise<number> {
  let entries = 0;
  const decoder = new FieTextStream({ slots: () => void (entries += 1) });
  for await (const chunk of createReadStream(path, { highWaterMark: FIE_READ_BYTES }) as AsyncIterable<Buffer>) decoder.writeLatin1(chunk);
  decoder.end();
  return entries;
}

/** Seconds of one run of `work`, after a full GC. */
async function timed(work: () => unknown): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

interface PairResult {
  floor: number[];
  stream: number[];
  entries: number;
}

/** The floor and the streamed decode in turns, `rounds` times (after one warm-up of each). */
async function pair(path: string, rounds: number): Promise<PairResult> {
  const buffer = readFileSync(path);
  const floorRun = () => splitFieLines(buffer.toString('latin1')).length;
  let entries = 0;
  const streamRun = async () => {
    entries = await streamFile(path);
  };
  await timed(floorRun);
  await timed(streamRun);
  const result: PairResult = { floor: [], stream: [], entries: 0 };
  for (let round = 0; round < rounds; round += 1) {
    result.floor.push(await timed(floorRun));
    result.stream.push(await timed(streamRun));
  }
  result.entries = entries;
  return result;
}

interface ChildResult {
  seconds: Record<string, number>;
  entries: number;
  maxRssMb: number;
}

/** The measurement of one case, inside its own process. */
async function child(mode: string, path: string, runs: number): Promise<ChildResult | PairResult> {
  if (mode === 'pair') return pair(path, runs);
  const seconds: Record<string, number> = {};
  let entries = 0;
  if (mode === 'floor') {
    const buffer = readFileSync(path);
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
    seconds['Buffer latin1'] = await best(runs, () => splitFieLines(buffer.toString('latin1')));
    seconds['decodeLatin1 (TextDecoder)'] = await best(runs, () => splitFieLines(decodeLatin1(bytes)));
    seconds['iconv-lite'] = await best(runs, () => splitFieLines(iconv.decode(buffer, 'latin1')));
  } else if (mode === 'stream') {
    seconds['stream'] = await best(runs, async () => {
      entries = await streamFile(path);
    });
  } else if (mode === 'memory') {
    const buffer = readFileSync(path);
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
    seconds['memory'] = await best(runs, () => {
      entries = decodeFie(bytes).entries.length;
    });
  }
  return { seconds, entries, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function runChild(mode: string, path: string, runs: number): ChildResult;
function runChild(mode: 'pair', path: string, runs: number): PairResult;
function runChild(mode: string, path: string, runs: number): ChildResult | PairResult {
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, '--child', mode, path, String(runs)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildResult | PairResult;
}

/** The middle value (the lower of the two middle ones for an even count). */
function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** `npm run fie -- decode FILE` with stdout to /dev/null: seconds and the CLI process's peak RSS. */
function runCli(path: string): { seconds: number; maxRssMb: number } {
  const report = 'data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss:"+process.resourceUsage().maxRSS+"\\n"))';
  const devNull = openSync('/dev/null', 'w');
  const started = performance.now();
  try {
    const result = spawnSync(process.execPath, ['--import', report, '--import', 'tsx', 'scripts/fie-cli.ts', 'decode', path], {
      cwd: ROOT,
      stdio: ['ignore', devNull, 'pipe'],
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0) throw new Error(`FIE bench: npm run fie terminó con ${result.status}: ${result.stderr}`);
    const kb = Number(/maxrss:(\d+)/.exec(result.stderr)?.[1] ?? Number.NaN);
    return { seconds, maxRssMb: kb / 1024 };
  } finally {
    closeSync(devNull);
  }
}

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

export async function runFieBench(args: readonly string[] = process.argv.slice(2)): Promise<string[]> {
  const big = args.includes('--big');
  const directory = mkdtempSync(join(tmpdir(), 'fie-bench-'));
  const lines: string[] = [];
  try {
    const path = join(directory, 'fie-100k.txt');
    const bytes = await writeSampleFie(path, ENTRIES);
    const megabytes = bytes / 1_000_000;
    const rate = (seconds: number) => megabytes / seconds;
    const check = (result: ChildResult, expected: number) => {
      if (result.entries !== expected) throw new Error(`FIE bench: se esperaban ${expected} entradas y se decodificaron ${result.entries}`);
    };

    const floor = runChild('floor', path, 5);
    const [floorName, floorSeconds] = Object.entries(floor.seconds).sort((a, b) => a[1] - b[1])[0] ?? ['?', Number.NaN];
    const stream = runChild('stream', path, 8);
    check(stream, ENTRIES);
    const memory = runChild('memory', path, 3);
    check(memory, ENTRIES);
    const cli = runCli(path);
    const rounds = runChild('pair', path, PAIR_ROUNDS);
    check({ seconds: {}, entries: rounds.entries, maxRssMb: 0 }, ENTRIES);
    const ratios = rounds.floor.map((seconds, round) => seconds / (rounds.stream[round] ?? Number.NaN));

    const streamSeconds = stream.seconds['stream'] ?? Number.NaN;
    const memorySeconds = memory.seconds['memory'] ?? Number.NaN;
    const textDecoderSeconds = floor.seconds['decodeLatin1 (TextDecoder)'] ?? Number.NaN;
    const share = (seconds: number) =>
      `${whole.format((100 * floorSeconds) / seconds)} % del suelo (${whole.format((100 * textDecoderSeconds) / seconds)} % del de TextDecoder)`;
    const mb = (value: number) => `${whole.format(value)} MB`;
    lines.push(
      `FIE: ${whole.format(ENTRIES)} entradas, ${number.format(megabytes)} MB (texto Latin-1 de ancho fijo, CRLF; scripts/bench/fie-sample.ts)`,
      `  suelo, Latin-1 a texto + líneas (splitFieLines): ${Object.entries(floor.seconds)
        .map(([name, seconds]) => `${name} ${number.format(rate(seconds))} MB/s`)
        .join(' · ')}; el suelo es el más rápido (${floorName})`,
      `  decodificación en flujo (FieTextStream, vista por casillas, lecturas de 1 MiB): ${number.format(rate(streamSeconds))} MB/s, ${whole.format(ENTRIES / streamSeconds)} entradas/s, ${share(streamSeconds)}, pico RSS ${mb(stream.maxRssMb)}`,
      `  decodeFie en memoria (todas las entradas retenidas):        ${number.format(rate(memorySeconds))} MB/s, ${whole.format(ENTRIES / memorySeconds)} entradas/s, ${share(memorySeconds)}, pico RSS ${mb(memory.maxRssMb)}`,
      `  npm run fie -- decode (NDJSON a /dev/null, proceso entero):  ${number.format(cli.seconds)} s, pico RSS ${mb(cli.maxRssMb)}`,
      `  streamed / floor: ${whole.format(100 * middle(ratios))} % (mediana de ${PAIR_ROUNDS} rondas alternas en un proceso: suelo Buffer latin1 + splitFieLines ${number.format(rate(middle(rounds.floor)))} MB/s, ` +
        `flujo ${number.format(rate(middle(rounds.stream)))} MB/s; rondas ${ratios.map((ratio) => whole.format(100 * ratio)).join(' · ')} %; objetivo ≥ 35 %: ${middle(ratios) >= 0.35 ? 'cumplido' : 'NO cumplido'})`,
      `  par Java (FieParser de Aon): ${number.format(JAVA_PEER_MB_S)} MB/s medido en el issue 19, no en esta ejecución; flujo = ${number.format(rate(streamSeconds) / JAVA_PEER_MB_S)}×, memoria = ${number.format(rate(memorySeconds) / JAVA_PEER_MB_S)}×`,
    );

    if (big) {
      const bigPath = join(directory, 'fie-1m.txt');
      const bigBytes = await writeSampleFie(bigPath, BIG_ENTRIES);
      rmSync(path, { force: true });
      const bigMegabytes = bigBytes / 1_000_000;
      const bigStream = runChild('stream', bigPath, 2);
      check(bigStream, BIG_ENTRIES);
      const bigCli = runCli(bigPath);
      const seconds = bigStream.seconds['stream'] ?? Number.NaN;
      lines.push(
        `FIE --big: ${whole.format(BIG_ENTRIES)} entradas, ${number.format(bigMegabytes)} MB`,
        `  decodificación en flujo: ${number.format(bigMegabytes / seconds)} MB/s, ${whole.format(BIG_ENTRIES / seconds)} entradas/s, pico RSS ${mb(bigStream.maxRssMb)}`,
        `  npm run fie -- decode (NDJSON a /dev/null): ${number.format(bigCli.seconds)} s, pico RSS ${mb(bigCli.maxRssMb)}`,
      );
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return lines;
}

await benchMain(import.meta.url, () => runFieBench(), ([mode = '', path = '', runs = '3']) => child(mode, path, Number(runs)));
