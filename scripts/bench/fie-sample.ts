/**
 * Generated FIE text files for the decoder bench and the CLI tests: entries laid out the way SILTRA
 * writes them (the synthetic FIE4 of shared/fie/fixtures): every segment line at its full fixed width,
 * blank fields as spaces, empty dates as 00000000, CRLF line ends, Latin-1. Each entry has EMP, RZS,
 * TRA, AYN, DAF, DIT and ITD lines and every other one a CIT: about 337 bytes and 33 informed fields
 * per entry, so 100,000 entries make a 33.7 MB file.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { encodeHeader, encodeSegment, type FieRawValues, type FieSegment } from '#shared/fie/index.ts';
import { segmentEnd } from '#shared/fie/layout.ts';
import { nifLetter } from '#shared/validation/identifiers.ts';

const SEGMENTS: readonly FieSegment[] = ['EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'ITD', 'CIT'];
const SURNAMES = ['GARCÍA', 'MUÑOZ', 'FERNÁNDEZ', 'LÓPEZ', 'MARTÍNEZ', 'SÁNCHEZ', 'PÉREZ', 'GÓMEZ', 'IBÁÑEZ', 'NÚÑEZ', 'DE LA PEÑA', 'ORTEGA'];
const NAMES = ['MARÍA', 'JOSÉ', 'ANTONIO', 'CARMEN', 'JUAN', 'ANA ISABEL', 'FRANCISCO', 'LUCÍA', 'ÁNGEL', 'MARÍA JESÚS', 'IÑAKI'];

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const date = (year: number, month: number, day: number) => `${year}${pad(month, 2)}${pad(day, 2)}`;

/** Raw values of entry `index`: a leave of one of five contingencies in a firm of 2,000 companies; a third discharged. */
export function sampleEntry(index: number): FieRawValues {
  const company = index % 2_000;
  const province = 1 + (company % 52);
  const day = 1 + (index % 28);
  const dni = (index * 7_919) % 100_000_000;
  const values: FieRawValues = {
    320: '0111',
    310: `${pad(province, 2)}${pad((company * 104_729) % 10_000_000, 7)}${pad(company % 97, 2)}`,
    360: '9',
    370: '724',
    380: `B${pad(10_000_000 + company, 8)}`.padStart(14, '0'),
    520: '2',
    530: `EMPRESA NUMERO ${company} SL`,
    610: `${pad(province, 2)}${pad(index, 10)}`,
    650: '1',
    660: '724',
    670: `${pad(dni, 8)}${nifLetter(dni)}`.padStart(14, '0'),
    820: SURNAMES[index % SURNAMES.length] ?? '',
    830: SURNAMES[(index * 7) % SURNAMES.length] ?? '',
    840: NAMES[index % NAMES.length] ?? '',
    910: date(2010 + (index % 15), 1 + (index % 12), 1),
    920: '00000000',
    1010: index % 5 === 0 ? '061' : '',
    1020: date(2025, 1, day),
    1030: index % 7 === 0 ? 'S' : 'N',
    1040: date(2025, 1, day),
    1050: '00000000',
    1060: pad(index % 40, 4),
    1070: '00000000',
    1090: String(1 + (index % 5)),
    1100: 'S',
    1110: '2',
    1120: pad(15 + (index % 60), 4),
    1130: '00000000',
    1150: index % 3 === 0 ? date(2025, 2, day) : '00000000',
    1160: index % 3 === 0 ? '01' : '',
    1170: 'N',
    1310: date(2025, 2, day),
    1320: '061',
    1330: '061',
    1340: date(2025, 2, day),
    1350: '00000000',
  };
  if (index % 2 === 0) Object.assign(values, { 1520: date(2025, 1, day), 1530: pad(1 + (index % 9), 2) });
  return values;
}

/** The lines of one entry, each padded to its segment's full width as SILTRA writes them. */
export function sampleEntryLines(values: FieRawValues): string[] {
  const lines: string[] = [];
  for (const tag of SEGMENTS) {
    const line = encodeSegment(tag, values);
    if (line !== null) lines.push(line.padEnd(segmentEnd(tag), ' '));
  }
  return lines;
}

export const SAMPLE_DATE = '20250115';

/** The file as text chunks of about `entriesPerChunk` entries each, header and trailer included. */
export function* sampleFieChunks(entries: number, entriesPerChunk = 2_000): Generator<string> {
  const newline = '\r\n';
  yield encodeHeader('ETI', 'FIE4', SAMPLE_DATE).padEnd(70, ' ') + newline;
  for (let first = 0; first < entries; first += entriesPerChunk) {
    const lines: string[] = [];
    for (let index = first; index < Math.min(entries, first + entriesPerChunk); index += 1) lines.push(...sampleEntryLines(sampleEntry(index)));
    yield lines.join(newline) + newline;
  }
  yield encodeHeader('ETF', 'FIE4', SAMPLE_DATE).padEnd(70, ' ') + newline;
}

/** Writes a generated file of `entries` entries (Latin-1) without holding it whole; returns its size in bytes. */
export async function writeSampleFie(path: string, entries: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (const chunk of sampleFieChunks(entries)) {
    const buffer = Buffer.from(chunk, 'latin1');
    bytes += buffer.length;
    if (!out.write(buffer)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
