import { decodeLatin1 } from './latin1.ts';
import { latin1Text } from './latin1-text.ts';
import { decodeFieSpreadsheet } from './spreadsheet.ts';
import { decodeFieText } from './text.ts';
import type { FieDocument, FieFormat } from './types.ts';

export interface DecodeFieOptions {
  /** Skip detection when the caller knows the format (e.g. from the file extension). */
  format?: FieFormat;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // .xlsx
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // .xls (BIFF in a compound file)

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** Spreadsheet when the content is a zip, an OLE compound file or XML (SpreadsheetML); text otherwise. */
export function detectFieFormat(input: string | Uint8Array): FieFormat {
  if (typeof input === 'string') return /^\uFEFF?\s*</.test(input) ? 'spreadsheet' : 'text';
  if (startsWith(input, ZIP_MAGIC) || startsWith(input, OLE_MAGIC)) return 'spreadsheet';
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
