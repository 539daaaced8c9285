import { inferDocumentIdType } from '../validation/identifiers.ts';
import type { IdType } from './types.ts';

/**
 * The identifier of a zero-padded 14-character field ('0000012345678Z' -> '12345678Z').
 * The padding zeros go, but a DNI keeps its own leading zeros: it is always 8 digits and a letter,
 * so '00000001234567Z' reads as '01234567Z'.
 */
export function normalizeNif(padded: string): string {
  const compact = padded.trim().toUpperCase().replace(/[\s-]/g, '');
  const unpadded = compact.replace(/^0+/, '');
  if (/^\d{1,8}[A-Z]$/.test(unpadded) && compact.length > unpadded.length) {
    return unpadded.padStart(9, '0');
  }
  return unpadded;
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isCapitalCode(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function digitsBetween(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (!isDigitCode(text.charCodeAt(index))) return false;
  return true;
}

/** True when every character is an ASCII digit or capital: such a text is its own compact, upper-case form. */
function isPlainAlphanumeric(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!isDigitCode(code) && !isCapitalCode(code)) return false;
  }
  return true;
}

/** normalizeNif() by char codes when the text is plain digits and capitals (what FIE files hold); the regex path otherwise. */
export function normalizeNifFast(padded: string): string {
  if (!isPlainAlphanumeric(padded)) return normalizeNif(padded);
  let zeros = 0;
  while (zeros < padded.length && padded.charCodeAt(zeros) === 0x30) zeros += 1;
  if (zeros === 0) return padded;
  const unpadded = padded.slice(zeros);
  const length = unpadded.length;
  // /^\d{1,8}[A-Z]$/ on the unpadded text: keep a DNI's own leading zeros.
  if (length >= 2 && length <= 9 && isCapitalCode(unpadded.charCodeAt(length - 1)) && digitsBetween(unpadded, 0, length - 1)) {
    return unpadded.padStart(9, '0');
  }
  return unpadded;
}

/** inferDocumentIdType() by char codes for a plain digits-and-capitals NIF; the validators' regexes otherwise. */
export function idTypeOf(nif: string): IdType | null {
  if (!isPlainAlphanumeric(nif)) return inferDocumentIdType(nif);
  const length = nif.length;
  if (length === 9 && isCapitalCode(nif.charCodeAt(8))) {
    if (digitsBetween(nif, 0, 8)) return 'DNI';
    const first = nif.charCodeAt(0);
    if ((first === 0x58 || first === 0x59 || first === 0x5a) && digitsBetween(nif, 1, 8)) return 'NIE';
  }
  if (length === 8 && isCapitalCode(nif.charCodeAt(0)) && isCapitalCode(nif.charCodeAt(1)) && digitsBetween(nif, 2, 8)) return 'PASSPORT';
  return null;
}
