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

/** The document type a NIF text looks like: DNI (8 digits + letter), NIE (X/Y/Z + 7 digits + letter), passport (2 letters + 6 digits). */
export function inferIdType(nif: string): IdType | null {
  const text = nif.trim().toUpperCase();
  if (/^\d{8}[A-Z]$/.test(text)) return 'dni';
  if (/^[XYZ]\d{7}[A-Z]$/.test(text)) return 'nie';
  if (/^[A-Z]{2}\d{6}$/.test(text)) return 'passport';
  return null;
}

/** The 'Tipo de documento' codes of registrations (spec §3): 1 D.N.I./N.I.F., 2 Pasaporte, 6 N.I.E. */
export const DOCUMENT_TYPE_CODES: Readonly<Record<IdType, '1' | '2' | '6'>> = { dni: '1', passport: '2', nie: '6' };
