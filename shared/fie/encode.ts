import { FIELDS_BY_SEGMENT, segmentEnd } from './layout.ts';
import type { FieSegment, FieVersion } from './types.ts';

/**
 * The inverse of the text decoder, for tests, the fuzz harness and the benchmark: raw field texts
 * (as they appear in a file, e.g. '20250110' for a date) laid out at their catalogue offsets.
 */

/** Raw text per field code. Overlapping group codes (310, 610) are written before their parts. */
export type FieRawValues = Partial<Record<number, string>>;

const ENTRY_SEGMENTS: readonly FieSegment[] = ['EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'ITD', 'CIT', 'DIP', 'JUB', 'DOP', 'NAC'];

function place(line: string[], offset: number, length: number, text: string): void {
  const value = text.padEnd(length, ' ').slice(0, length);
  for (let index = 0; index < length; index += 1) line[offset + index] = value[index] ?? ' ';
}

/** One segment line, or null when none of its fields has a value (EMP is always written: it opens the block). */
export function encodeSegment(tag: FieSegment, values: FieRawValues): string | null {
  const defs = FIELDS_BY_SEGMENT.get(tag) ?? [];
  const informed = defs.filter((def) => values[def.code] !== undefined);
  if (informed.length === 0 && tag !== 'EMP') return null;
  const line = [...tag, ...' '.repeat(segmentEnd(tag) - 3)];
  // Wider group fields first, so their parts (330 inside 310) land on top.
  for (const def of [...informed].sort((a, b) => b.length - a.length)) place(line, def.offset, def.length, values[def.code] ?? '');
  return line.join('').trimEnd();
}

export function encodeEntry(values: FieRawValues): string[] {
  return ENTRY_SEGMENTS.map((tag) => encodeSegment(tag, values)).filter((line): line is string => line !== null);
}

export interface FieFileSpec {
  version?: FieVersion;
  /** AAAAMMDD of the ETI header (field 100). */
  date?: string;
  entries: readonly FieRawValues[];
  newline?: '\n' | '\r\n';
}

/** A header in the style of the Sistema RED ETI lines: version after the tag, the file date at [29:37]. */
export function encodeHeader(tag: 'ETI' | 'ETF', version: FieVersion, date: string): string {
  const line = [...' '.repeat(70)];
  place(line, 0, 3, tag);
  place(line, 3, 5, `${version}0`);
  place(line, 8, 4, 'SLTR');
  place(line, 29, 8, date);
  place(line, 37, 4, '0730');
  return line.join('').trimEnd();
}

export function encodeFieFile({ version = 'FIE4', date = '20250115', entries, newline = '\n' }: FieFileSpec): string {
  const lines = [encodeHeader('ETI', version, date), ...entries.flatMap(encodeEntry), encodeHeader('ETF', version, date)];
  return lines.join(newline) + newline;
}
