import { measureUnitNames, type FlowDefinition } from '#shared/flows/definition.ts';

/**
 * How many workbook rows one usage unit is, read from the flow's usageMeasureUnit: 'fila|filas' is 1,
 * '100 filas' or 'bloque de 100 filas' is 100; null when the unit is not rows ('entrada', 'archivo').
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
 * The units a launch is estimated to use before it runs (spec §9: cost = usageUnits × usageRatio):
 * for a flow counted in rows, the data rows of its workbooks (rounded up to whole units); otherwise,
 * or with no workbook, one unit. The run is charged what the robot reports, not this estimate.
 */
export function estimateUnits(definition: FlowDefinition, workbookRows: number | null): number {
  const perUnit = rowsPerUnit(definition.usageMeasureUnit);
  if (perUnit === null || workbookRows === null) return 1;
  return Math.ceil(workbookRows / perUnit);
}

/** Slans for units at a ratio, without binary-fraction noise (0.1 × 3 is 0.3, not 0.30000000000000004). */
export function costOf(usageUnits: number, usageRatio: number): number {
  return Math.round(usageUnits * usageRatio * 1e6) / 1e6;
}
