import type * as XLSX from 'xlsx';
import { cellText } from './workbook.ts';

/**
 * A digits-only identifier (NAF 12, CCC 11) in a number cell loses its leading zeros: '08123456774'
 * becomes 8123456774. When putting the zeros back makes it valid, that is what happened, and the
 * advisor should hear so rather than "not valid". Returns the value with its zeros, or null.
 */
export function zerosLostByExcel(cell: XLSX.CellObject | undefined, length: number, isValid: (text: string) => boolean): string | null {
  const text = cellText(cell);
  if (cell?.t !== 'n' || !/^\d+$/.test(text) || text.length >= length) return null;
  const padded = text.padStart(length, '0');
  return isValid(padded) ? padded : null;
}

export function zerosLostMessage(padded: string): string {
  return `Excel ha quitado los ceros a la izquierda: debe ser ${padded} (escríbelo como texto)`;
}
