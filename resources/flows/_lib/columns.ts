import type { MappedColumn } from '#shared/flows/definition.ts';
import { columnMappingValueSchema } from '#shared/api/flows.ts';
import { detectColumns, headerKey, type DetectedColumn } from '#shared/flows/columns.ts';

// The same detection the launcher preselects with, so what the user saw chosen is what runs.
export { detectColumns };

/** A mapped column found in the sheet (0-based index). */
export type FoundColumn = DetectedColumn<MappedColumn>;

export interface ColumnResolution {
  found: FoundColumn[];
  /** True when the user mapped nothing and the columns were chosen by their headers. */
  detected: boolean;
  /** Headers the user chose that the sheet does not have (the mapping was made on another file). */
  notInSheet: { column: MappedColumn; header: string }[];
}

/**
 * The columns to work on: those the user mapped (a ColumnMapping value, key -> header or null for
 * "not in this file"), or, when nothing was mapped at all, those detected by header.
 */
export function resolveColumns(headers: readonly string[], columns: readonly MappedColumn[], mappingValue: unknown): ColumnResolution {
  const parsed = columnMappingValueSchema.safeParse(mappingValue ?? {});
  const mapping = parsed.success ? parsed.data : {};
  const chosen = columns.flatMap((column) => {
    const header = mapping[column.key];
    return typeof header === 'string' && header.trim() !== '' ? [{ column, header }] : [];
  });
  if (chosen.length === 0) return { found: detectColumns(headers, columns), detected: true, notInSheet: [] };
  const found: FoundColumn[] = [];
  const notInSheet: ColumnResolution['notInSheet'] = [];
  for (const { column, header } of chosen) {
    // Exact header first; then the same words with other case or accents ('Nº afiliación' vs 'nº afiliacion').
    let index = headers.indexOf(header);
    if (index < 0) index = headers.map(headerKey).indexOf(headerKey(header));
    if (index < 0) notInSheet.push({ column, header });
    else found.push({ column, index, header: headers[index] ?? header });
  }
  return { found: found.sort((a, b) => a.index - b.index), detected: false, notInSheet };
}
