/**
 * Fuzz harness for the FIE decoder: `npm run fuzz:fie [-- --count N --seconds S --seed X]`.
 * Feeds decodeFie (and the A3 mapping) mutated valid files (text, .xlsx, SpreadsheetML) and random
 * bytes. Bounded by count and time; prints how many cases ran. Exit 1 on a throw or a hang, printing
 * the failing case's seed; `--seed X --count 1` replays it.
 *
 * The cases run in a worker thread so that a hang can be noticed: the worker publishes the case it is
 * on in shared memory, and the main thread stops it when that number stops moving.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import * as XLSX from 'xlsx';
import { toA3SyncRecord } from '#shared/a3/index.ts';
import { decodeFie, encodeFieFile, type FieRawValues } from '#shared/fie/index.ts';

interface FuzzConfig {
  count: number;
  seconds: number;
  seed: number;
}

const HANG_SECONDS = 10;

/** mulberry32: small, fast and good enough to pick mutations reproducibly from a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (next: Random, below: number) => Math.floor(next() * below);
const pick = <T>(next: Random, items: readonly T[]): T => items[int(next, items.length)] as T;

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0) & 0xff);
}

const WORKER_A: FieRawValues = { 320: '0111', 310: '28123456789', 530: 'EMPRESA DE PRUEBA SL', 670: '0000012345678Z', 820: 'GARCÍA', 840: 'MARÍA' };
const SEEDS_TEXT = [
  encodeFieFile({ entries: [{ ...WORKER_A, 1020: '20250110', 1090: '1', 1100: 'S', 1520: '20250117', 1530: '01' }] }),
  encodeFieFile({ version: 'FIE3', newline: '\r\n', entries: [{ ...WORKER_A, 1020: '20250105', 1030: 'S', 1090: '3', 1150: '20250106', 1173: '2' }, WORKER_A] }),
];

function spreadsheetSeeds(): Uint8Array[] {
  const workbook = XLSX.utils.book_new();
  const rows = [['670', '1020', '1090', '1150', 'Razón social'], ['X1234567L', 20250110, 3, '12/01/2025', 'ACME SL']];
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'FIE');
  const xlsx = new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  const xml = new TextEncoder().encode(XLSX.write(workbook, { type: 'string', bookType: 'xlml' }) as string);
  return [xlsx, xml];
}

function mutateBytes(next: Random, bytes: Uint8Array): Uint8Array {
  const out = [...bytes];
  const mutations = 1 + int(next, 8);
  for (let step = 0; step < mutations; step += 1) {
    const at = int(next, out.length + 1);
    switch (int(next, 4)) {
      case 0:
        if (out.length > 0) out[Math.min(at, out.length - 1)] = int(next, 256);
        break;
      case 1:
        out.splice(at, 0, ...Array.from({ length: 1 + int(next, 16) }, () => int(next, 256)));
        break;
      case 2:
        out.splice(at, 1 + int(next, 64));
        break;
      default:
        out.length = Math.min(out.length, at);
    }
  }
  return Uint8Array.from(out);
}

const TAGS = ['ETI', 'ETF', 'EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'IT2', 'ITD', 'CIT', 'DIP', 'JUB', 'DOP', 'NAC'];

/** Line-level damage that byte flips rarely produce: lost, doubled, reordered or re-tagged lines. */
function mutateLines(next: Random, text: string): string {
  const lines = text.split(/\r?\n/);
  const mutations = 1 + int(next, 5);
  for (let step = 0; step < mutations; step += 1) {
    const at = int(next, lines.length);
    const line = lines[at] ?? '';
    switch (int(next, 5)) {
      case 0:
        lines.splice(at, 1);
        break;
      case 1:
        lines.splice(at, 0, line, line);
        break;
      case 2:
        lines[at] = pick(next, TAGS) + line.slice(3);
        break;
      case 3:
        lines[at] = line.slice(0, int(next, line.length + 1)) + ' '.repeat(int(next, 40));
        break;
      default:
        lines[at] = line.replace(/FIE\d/, `FIE${int(next, 10)}`);
    }
  }
  return lines.join(pick(next, ['\n', '\r\n']));
}

/** The input of case `seed`: always the same for the same seed. */
function caseInput(seed: number, sheets: readonly Uint8Array[]): Uint8Array | string {
  const next = random(seed);
  switch (int(next, 5)) {
    case 0:
      return mutateLines(next, pick(next, SEEDS_TEXT));
    case 1:
      return mutateBytes(next, latin1(pick(next, SEEDS_TEXT)));
    case 2:
      return mutateBytes(next, pick(next, sheets));
    case 3:
      return Uint8Array.from({ length: int(next, 2048) }, () => int(next, 256));
    default:
      return latin1(`ETIFIE4${Array.from({ length: int(next, 2048) }, () => String.fromCharCode(int(next, 256))).join('')}`);
  }
}

function runCase(input: Uint8Array | string): void {
  const document = decodeFie(input);
  for (const entry of document.entries) toA3SyncRecord(entry);
}

/** Small failing inputs are printed whole (base64) so they can become regression fixtures. */
function describeInput(input: Uint8Array | string): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  return bytes.length <= 32_768 ? `entrada (${bytes.length} bytes, base64): ${bytes.toString('base64')}` : `entrada de ${bytes.length} bytes`;
}

type WorkerMessage = { kind: 'done'; ran: number } | { kind: 'threw'; seed: number; error: string; input: string };

function workerMain({ count, seconds, seed }: FuzzConfig, progress: Int32Array): void {
  const sheets = spreadsheetSeeds();
  const deadline = Date.now() + seconds * 1000;
  let ran = 0;
  for (; ran < count && Date.now() < deadline; ran += 1) {
    Atomics.store(progress, 0, ran + 1);
    const input = caseInput(seed + ran, sheets);
    try {
      runCase(input);
    } catch (error) {
      const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
      parentPort?.postMessage({ kind: 'threw', seed: seed + ran, error: stack, input: describeInput(input) } satisfies WorkerMessage);
      return;
    }
  }
  parentPort?.postMessage({ kind: 'done', ran } satisfies WorkerMessage);
}

function parseArgs(args: readonly string[]): FuzzConfig {
  const value = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`);
    const parsed = index === -1 ? Number.NaN : Number(args[index + 1]);
    return Number.isFinite(parsed) ? parsed : fallback;
  };
  return { count: value('count', 20_000), seconds: value('seconds', 60), seed: value('seed', Date.now() % 2 ** 31) >>> 0 };
}

function main(config: FuzzConfig): Promise<number> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  // Workers do not inherit tsx's loader, so the worker is a one-line script that loads this file through tsx.
  const bootstrap = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { config, progress } });
  const started = Date.now();
  console.log(`Fuzz FIE: hasta ${config.count} casos o ${config.seconds} s, semilla inicial ${config.seed}`);
  return new Promise((resolve) => {
    let lastSeen = -1;
    let stillSince = Date.now();
    const watchdog = setInterval(() => {
      const current = Atomics.load(progress, 0);
      if (current !== lastSeen) {
        lastSeen = current;
        stillSince = Date.now();
      } else if (Date.now() - stillSince > HANG_SECONDS * 1000) {
        clearInterval(watchdog);
        console.error(`COLGADO: el caso con semilla ${config.seed + current - 1} lleva más de ${HANG_SECONDS} s (repetir con --seed ${config.seed + current - 1} --count 1)`);
        void worker.terminate().then(() => resolve(1));
      }
    }, 500);
    worker.on('message', (message: WorkerMessage) => {
      clearInterval(watchdog);
      const elapsed = ((Date.now() - started) / 1000).toFixed(1);
      if (message.kind === 'done') {
        console.log(`Fuzz FIE: ${message.ran} casos en ${elapsed} s, ninguno ha lanzado una excepción`);
        resolve(0);
      } else {
        console.error(`FALLO: el caso con semilla ${message.seed} lanzó (repetir con --seed ${message.seed} --count 1)\n${message.error}\n${message.input}`);
        resolve(1);
      }
      void worker.terminate();
    });
    worker.on('error', (error) => {
      clearInterval(watchdog);
      console.error(`FALLO: el worker terminó con un error: ${error.stack ?? error.message}`);
      resolve(1);
    });
  });
}

if (isMainThread) {
  process.exitCode = await main(parseArgs(process.argv.slice(2)));
} else {
  const { config, progress } = workerData as { config: FuzzConfig; progress: Int32Array };
  workerMain(config, progress);
}
