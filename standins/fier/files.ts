/**
 * The FIE files the FIER stand-in serves: real FIE4 text, made with the shared encoder's sample entries
 * (shared/fie/sample.ts), so the server decodes them as it decodes the INSS's.
 */
import { encodeHeader } from '#shared/fie/encode.ts';
import { sampleEntry, sampleEntryLines } from '#shared/fie/sample.ts';

export interface FierStandinFile {
  id: string;
  nombre: string;
  /** Processing day, yyyy-mm-dd. */
  fecha: string;
  bytes: Uint8Array;
}

/**
 * One FIE file for `day` with `entries` entries. `firstEntry` picks which sample entries it carries
 * (files of different days carry different workers unless told otherwise). Latin-1 bytes, CRLF.
 */
export function sampleFierFile(day: string, entries: number, firstEntry = dayNumber(day) * 10): FierStandinFile {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const compact = day.replaceAll('-', '');
  const lines = [encodeHeader('ETI', 'FIE4', compact).padEnd(70, ' ')];
  for (let index = firstEntry; index < firstEntry + entries; index += 1) lines.push(...sampleEntryLines(sampleEntry(index, { year, month })));
  lines.push(encodeHeader('ETF', 'FIE4', compact).padEnd(70, ' '));
  const text = `${lines.join('\r\n')}\r\n`;
  return { id: `FIE-${compact}-${firstEntry}`, nombre: `FIE_${compact}_${firstEntry}.txt`, fecha: day, bytes: new Uint8Array(Buffer.from(text, 'latin1')) };
}

function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000) % 1000;
}

/** One file per day for the `days` days up to `lastDay` (what the stand-in serves when started on its own). */
export function sampleFierDays(lastDay: string, days: number, entriesPerFile = 3): FierStandinFile[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => sampleFierFile(new Date(end - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10), entriesPerFile));
}
