import { encodeFieFile } from '#shared/fie/encode.ts';
import { sampleEntry, sampleFieChunks } from '#shared/fie/sample.ts';

/** FIE files for the browser tests, made at run time the way SILTRA writes them (Latin-1 text). */

export interface TestFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** A FIE4 file of `entries` leaves that began in the given month (the generator the bench and the demo use). */
export function fie4File(name: string, entries: number, month: { year: number; month: number }): TestFile {
  return { name, mimeType: 'text/plain', buffer: latin1([...sampleFieChunks(entries, 1_000, month)].join('')) };
}

/** A FIE3 file of `entries` leaves, numbered from `firstIndex` so its workers differ from another file's. */
export function fie3File(name: string, entries: number, firstIndex: number, month: { year: number; month: number }): TestFile {
  const rows = Array.from({ length: entries }, (_, offset) => sampleEntry(firstIndex + offset, month));
  const date = `${month.year}${String(month.month).padStart(2, '0')}15`;
  return { name, mimeType: 'text/plain', buffer: latin1(encodeFieFile({ version: 'FIE3', date, entries: rows, newline: '\r\n' })) };
}

/** A text file that is not a FIE (no ETI header). */
export function notAFieFile(name: string): TestFile {
  return { name, mimeType: 'text/plain', buffer: Buffer.from('Lista de la compra:\n- pan\n- leche\n', 'utf8') };
}
