/**
 * FIE decode throughput on a generated 100k-entry text file, beside the raw speed of what every decode
 * must do anyway (Latin-1 to text + line split), measured in the same run so the two compare.
 * `scripts/bench.ts` imports runFieBench(); `npx tsx scripts/bench/fie-bench.ts` runs it alone.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import iconv from 'iconv-lite';
import { decodeFie, decodeLatin1, encodeFieFile, splitFieLines, type FieRawValues } from '#shared/fie/index.ts';

const ENTRIES = 100_000;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** A varied but valid entry: a leave of one of five contingencies, a third of them discharged. */
function entry(index: number): FieRawValues {
  const day = 1 + (index % 28);
  const values: FieRawValues = {
    320: '0111',
    310: `${pad(1 + (index % 52), 2)}${pad(index, 9)}`,
    530: `EMPRESA ${index % 1000} SL`,
    610: `28${pad(index, 10)}`,
    650: '1',
    660: '724',
    670: `${pad(index, 8)}Z`.padStart(14, '0'),
    820: 'GARCÍA',
    830: 'MUÑOZ',
    840: `NOMBRE${index % 97}`,
    910: '20200301',
    1020: `202501${pad(day, 2)}`,
    1030: index % 7 === 0 ? 'S' : 'N',
    1060: pad(index % 40, 4),
    1090: String(1 + (index % 5)),
    1100: 'S',
    1120: '0015',
    1170: 'N',
  };
  if (index % 3 === 0) Object.assign(values, { 1150: `202502${pad(day, 2)}`, 1160: '01' });
  if (index % 4 === 0) Object.assign(values, { 1520: `202501${pad(day, 2)}`, 1530: '01' });
  return values;
}

/** Best of `runs` timings, in seconds (the first run also warms the JIT up). */
function best(runs: number, work: () => void): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest / 1000;
}

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

export async function runFieBench(): Promise<string[]> {
  const text = encodeFieFile({ entries: Array.from({ length: ENTRIES }, (_, index) => entry(index)), newline: '\r\n' });
  const bytes = new Uint8Array(Buffer.from(text, 'latin1'));
  const megabytes = bytes.length / 1_000_000;

  let decodedEntries = 0;
  const decodeSeconds = best(3, () => {
    decodedEntries = decodeFie(bytes).entries.length;
  });
  if (decodedEntries !== ENTRIES) throw new Error(`FIE bench: se esperaban ${ENTRIES} entradas y se decodificaron ${decodedEntries}`);
  const handSeconds = best(5, () => void splitFieLines(decodeLatin1(bytes)));
  const iconvSeconds = best(5, () => void splitFieLines(iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), 'latin1')));

  const rate = (seconds: number) => `${number.format(megabytes / seconds)} MB/s`;
  return [
    `FIE: ${whole.format(ENTRIES)} entradas, ${number.format(megabytes)} MB (texto Latin-1, CRLF)`,
    `  decodeFie:                          ${rate(decodeSeconds)}, ${whole.format(ENTRIES / decodeSeconds)} entradas/s (${whole.format(decodeSeconds * 1000)} ms)`,
    `  Latin-1 + líneas (decodeLatin1):    ${rate(handSeconds)} (${whole.format(handSeconds * 1000)} ms)`,
    `  Latin-1 + líneas (iconv-lite):      ${rate(iconvSeconds)} (${whole.format(iconvSeconds * 1000)} ms)`,
    `  decodeFie tarda ${number.format(decodeSeconds / Math.min(handSeconds, iconvSeconds))}× lo que cuesta solo leer el texto`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runFieBench()) console.log(line);
}
