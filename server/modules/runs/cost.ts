import type { FlowDefinition } from '#shared/flows/definition.ts';
import { rowsPerUnit } from '#shared/flows/usage.ts';

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
