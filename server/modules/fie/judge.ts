import type { FieVersion } from '#shared/fie/types.ts';
import { FIE_HEADER_SEARCH_BYTES, fieHeaderOf } from '../../files/fie.ts';
import { ignoredFieReason, NOT_A_FIE_REASON } from './messages.ts';
import { readStart } from '../../files/read-start.ts';

/** What an uploaded file is by its content, never by its name. */
export type JudgedFie = { kind: 'text'; version: FieVersion } | { kind: 'excel' } | { kind: 'refused'; reason: string };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // .xlsx
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // .xls (BIFF in a compound file)

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}


/**
 * A text FIE when its first non-blank line is an ETI header of FIE3 or FIE4 (server/files/fie.ts); an
 * ETI header of another version is a FIE the decoder ignores; an Excel workbook (.xlsx zip or .xls
 * compound file) goes to the spreadsheet decoder, which looks for the FIE's columns; anything else is
 * not a FIE.
 */
export async function judgeFieContent(path: string): Promise<JudgedFie> {
  const start = await readStart(path, FIE_HEADER_SEARCH_BYTES);
  const header = fieHeaderOf(start);
  if (header.fie) return { kind: 'text', version: header.version };
  if (startsWith(start, ZIP_MAGIC) || startsWith(start, OLE_MAGIC)) return { kind: 'excel' };
  const firstLine = Buffer.from(start).toString('latin1').replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  if (firstLine.startsWith('ETI')) return { kind: 'refused', reason: ignoredFieReason(header.reason) };
  return { kind: 'refused', reason: NOT_A_FIE_REASON };
}
