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
