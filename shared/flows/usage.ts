import { measureUnitNames } from './definition.ts';

/**
 * How many workbook rows one usage unit is, read from the flow's usageMeasureUnit: 'fila|filas' is 1,
 * '100 filas' or 'bloque de 100 filas' is 100; null when the unit is not rows ('entrada', 'archivo').
 * The launcher's estimate and the server's pre-launch credit check read units the same way.
 */
export function rowsPerUnit(usageMeasureUnit: string): number | null {
  const { singular, plural } = measureUnitNames(usageMeasureUnit);
  const text = `${singular} ${plural}`.toLowerCase();
  if (!/\bfilas?\b/.test(text)) return null;
  const count = /(\d[\d.]*)/.exec(text)?.[1];
  const rows = count === undefined ? 1 : Number(count.replaceAll('.', ''));
  return rows > 0 ? rows : 1;
}

/**
 * How many FIE entries (partes) one usage unit is, read from the flow's usageMeasureUnit: 'parte|partes'
 * is 1, '10 partes' is 10; null when the unit is not FIE entries. A launch of such a flow is estimated
 * from the entries its uploaded FIE files hold (counted when they were uploaded).
 */
export function entriesPerUnit(usageMeasureUnit: string): number | null {
  const { singular, plural } = measureUnitNames(usageMeasureUnit);
  const text = `${singular} ${plural}`.toLowerCase();
  if (!/\bpartes?\b/.test(text)) return null;
  const count = /(\d[\d.]*)/.exec(text)?.[1];
  const entries = count === undefined ? 1 : Number(count.replaceAll('.', ''));
  return entries > 0 ? entries : 1;
}
