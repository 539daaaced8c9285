import type { FlowDefinition } from '#shared/flows/definition.ts';
import { entriesPerUnit, rowsPerUnit } from '#shared/flows/usage.ts';

/**
 * What a launch's uploads hold, as inspected when they were uploaded (stored_files.row_count and
 * entry_count): data rows of its workbooks, and FIE entries (partes) of its FIE files plus the rows of
 * its workbooks (a FIE exported to a spreadsheet has a row per parte). Null: no upload of that kind.
 */
export interface UploadCounts {
  rows: number | null;
  entries: number | null;
}

export const NO_UPLOAD_COUNTS: UploadCounts = { rows: null, entries: null };

/**
 * The units a launch is estimated to use before it runs (spec §9: cost = usageUnits × usageRatio):
 * for a flow counted in rows, the data rows of its workbooks (rounded up to whole units); for a flow
 * counted in FIE entries ('parte|partes'), the entries of its FIE files; otherwise, or with no such
 * upload, one unit. The run is charged what the robot reports, not this estimate.
 */
export function estimateUnits(definition: FlowDefinition, counts: UploadCounts): number {
  const rowsUnit = rowsPerUnit(definition.usageMeasureUnit);
  if (rowsUnit !== null) return counts.rows === null ? 1 : Math.ceil(counts.rows / rowsUnit);
  const entriesUnit = entriesPerUnit(definition.usageMeasureUnit);
  if (entriesUnit !== null) return counts.entries === null ? 1 : Math.ceil(counts.entries / entriesUnit);
  return 1;
}

/** Slans for units at a ratio, without binary-fraction noise (0.1 × 3 is 0.3, not 0.30000000000000004). */
export function costOf(usageUnits: number, usageRatio: number): number {
  return Math.round(usageUnits * usageRatio * 1e6) / 1e6;
}
