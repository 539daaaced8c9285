import { isOleCompound, isZip } from '../files/magic.ts';
import { decodeLatin1 } from './latin1.ts';
import { latin1Text } from './latin1-text.ts';
import { decodeFieSpreadsheet } from './spreadsheet.ts';
import { decodeFieText } from './text.ts';
import type { FieDocument, FieFormat } from './types.ts';

export interface DecodeFieOptions {
  /** Skip detection when the caller knows the format (e.g. from the file extension). */
  format?: FieFormat;
}

/** Spreadsheet when the content is a zip, an OLE compound file or XML (SpreadsheetML); text otherwise. */
export function detectFieFormat(input: string | Uint8Array): FieFormat {
  if (typeof input === 'string') return /^\uFEFF?\s*</.test(input) ? 'spreadsheet' : 'text';
  if (isZip(input) || isOleCompound(input)) return 'spreadsheet';
  const head = decodeLatin1(input.subarray(0, 64)).replace(/^\u00EF\u00BB\u00BF/, ''); // UTF-8 BOM read as Latin-1
  return /^\s*</.test(head) ? 'spreadsheet' : 'text';
}

/**
 * Decodes a FIE from text, Latin-1 bytes of the text form, or spreadsheet bytes/XML. Never throws:
 * unusable input comes back as an ignored document with a Spanish reason.
 */
export function decodeFie(input: string | Uint8Array, options: DecodeFieOptions = {}): FieDocument {
  const format = options.format ?? detectFieFormat(input);
  if (format === 'spreadsheet') return decodeFieSpreadsheet(input);
  return decodeFieText(typeof input === 'string' ? input : latin1Text(input));
}
