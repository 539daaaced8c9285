/**
 * Generated FIE text files, laid out the way SILTRA writes them (the synthetic FIE4 of shared/fie/fixtures):
 * every segment line at its full fixed width, blank fields as spaces, empty dates as 00000000, CRLF line
 * ends. Each entry has EMP, RZS, TRA, AYN, DAF, DIT and ITD lines and every other one a CIT: about 337
 * bytes and 33 informed fields per entry, so 100,000 entries make a 33.7 MB file (Latin-1). Used by the
 * decoder bench, the CLI tests and the demo account's history (server/db/demo-files.ts).
 */
import { encodeHeader, encodeSegment, type FieRawValues } from './encode.ts';
import { segmentEnd } from './layout.ts';
import type { FieSegment } from './types.ts';
import { nifLetter } from '../validation/identifiers.ts';

const SEGMENTS: readonly FieSegment[] = ['EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'ITD', 'CIT'];
const SURNAMES = ['GARCÍA', 'MUÑOZ', 'FERNÁNDEZ', 'LÓPEZ', 'MARTÍNEZ', 'SÁNCHEZ', 'PÉREZ', 'GÓMEZ', 'IBÁÑEZ', 'NÚÑEZ', 'DE LA PEÑA', 'ORTEGA'];
const NAMES = ['MARÍA', 'JOSÉ', 'ANTONIO', 'CARMEN', 'JUAN', 'ANA ISABEL', 'FRANCISCO', 'LUCÍA', 'ÁNGEL', 'MARÍA JESÚS', 'IÑAKI'];

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const date = (year: number, month: number, day: number) => `${year}${pad(month, 2)}${pad(day, 2)}`;

/** A calendar month: the leaves of a sample file start in it and are confirmed or ended in the next. */
export interface SampleMonth {
  year: number;
  /** 1-12. */
  month: number;
}

/** The month the bench's files are dated in (their sizes and figures are compared across runs). */
export const BENCH_MONTH: SampleMonth = { year: 2025, month: 1 };

const nextMonth = ({ year, month }: SampleMonth): SampleMonth => (month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 });

/** Raw values of entry `index`: a leave of one of five contingencies in a firm of 2,000 companies; a third discharged. */
export function sampleEntry(index: number, start: SampleMonth = BENCH_MONTH): FieRawValues {
  const next = nextMonth(start);
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
    1020: date(start.year, start.month, day),
    1030: index % 7 === 0 ? 'S' : 'N',
    1040: date(start.year, start.month, day),
    1050: '00000000',
    1060: pad(index % 40, 4),
    1070: '00000000',
    1090: String(1 + (index % 5)),
    1100: 'S',
    1110: '2',
    1120: pad(15 + (index % 60), 4),
    1130: '00000000',
    1150: index % 3 === 0 ? date(next.year, next.month, day) : '00000000',
    1160: index % 3 === 0 ? '01' : '',
    1170: 'N',
    1310: date(next.year, next.month, day),
    1320: '061',
    1330: '061',
    1340: date(next.year, next.month, day),
    1350: '00000000',
  };
  if (index % 2 === 0) Object.assign(values, { 1520: date(start.year, start.month, day), 1530: pad(1 + (index % 9), 2) });
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

/**
 * The file as text chunks of about `entriesPerChunk` entries each, header and trailer included: leaves
 * that began in `start`, in a file dated `fileDate` (yyyymmdd; the 15th of `start` unless given).
 */
export function* sampleFieChunks(entries: number, entriesPerChunk = 2_000, start: SampleMonth = BENCH_MONTH, fileDate = date(start.year, start.month, 15)): Generator<string> {
  const newline = '\r\n';
  yield encodeHeader('ETI', 'FIE4', fileDate).padEnd(70, ' ') + newline;
  for (let first = 0; first < entries; first += entriesPerChunk) {
    const lines: string[] = [];
    for (let index = first; index < Math.min(entries, first + entriesPerChunk); index += 1) lines.push(...sampleEntryLines(sampleEntry(index, start)));
    yield lines.join(newline) + newline;
  }
  yield encodeHeader('ETF', 'FIE4', fileDate).padEnd(70, ' ') + newline;
}
