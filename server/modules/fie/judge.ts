import { isOleCompound, isZip } from '#shared/files/magic.ts';
import type { FieVersion } from '#shared/fie/types.ts';
import { FIE_HEADER_SEARCH_BYTES, fieHeaderOf } from '../../files/fie.ts';
import { EMPTY_FILE_REASON, ignoredFieReason, NOT_A_FIE_REASON } from './messages.ts';
import { readStart } from '../../files/read-start.ts';

/** What an uploaded file is by its content, never by its name. */
export type JudgedFie = { kind: 'text'; version: FieVersion } | { kind: 'excel' } | { kind: 'refused'; reason: string };

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
  if (isZip(start) || isOleCompound(start)) return { kind: 'excel' };
  const firstLine = Buffer.from(start).toString('latin1').replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  if (firstLine === '') return { kind: 'refused', reason: EMPTY_FILE_REASON };
  if (firstLine.startsWith('ETI')) return { kind: 'refused', reason: ignoredFieReason(header.reason) };
  return { kind: 'refused', reason: NOT_A_FIE_REASON };
}
