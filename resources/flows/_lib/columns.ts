import type { MappedColumn } from '#shared/flows/definition.ts';
import { columnMappingValueSchema } from '#shared/api/flows.ts';
import { headerKey } from './text.ts';

/** A mapped column found in the sheet. */
export interface FoundColumn {
  column: MappedColumn;
  /** 0-based sheet column. */
  index: number;
  header: string;
}

export interface ColumnResolution {
  found: FoundColumn[];
  /** True when the user mapped nothing and the columns were chosen by their headers. */
  detected: boolean;
  /** Headers the user chose that the sheet does not have (the mapping was made on another file). */
  notInSheet: { column: MappedColumn; header: string }[];
}

/**
 * How well a header matches a hint: the whole header (3), its first words (2), some of its words (1),
 * or not at all (0). A header starting with 'tipo' only matches hints that do too: 'Tipo de documento'
 * names the kind of document, not the number a 'documento' hint is after.
 */
function matchScore(header: string, hint: string): number {
  if (header === '' || hint === '' || (header.startsWith('tipo ') && !hint.startsWith('tipo '))) return 0;
  if (header === hint) return 3;
  if (header.startsWith(`${hint} `)) return 2;
  return ` ${header} `.includes(` ${hint} `) ? 1 : 0;
}

/**
 * Each target column gets the header that matches one of its hints best; a header serves one target.
 * The strongest matches are settled first, so 'Código cuenta cotización' goes to the CCC (whole
 * header) before the IBAN's looser 'cuenta' hint can take it.
 */
export function detectColumns(headers: readonly string[], columns: readonly MappedColumn[]): FoundColumn[] {
  const keys = headers.map(headerKey);
  const candidates: { column: MappedColumn; index: number; score: number; hintLength: number }[] = [];
  for (const column of columns) {
    keys.forEach((key, index) => {
      for (const hint of column.headerHints.map(headerKey)) {
        const score = matchScore(key, hint);
        if (score > 0) candidates.push({ column, index, score, hintLength: hint.length });
      }
    });
  }
  candidates.sort((a, b) => b.score - a.score || b.hintLength - a.hintLength || a.index - b.index);
  const takenColumns = new Set<string>();
  const takenHeaders = new Set<number>();
  const found: FoundColumn[] = [];
  for (const candidate of candidates) {
    if (takenColumns.has(candidate.column.key) || takenHeaders.has(candidate.index)) continue;
    takenColumns.add(candidate.column.key);
    takenHeaders.add(candidate.index);
    found.push({ column: candidate.column, index: candidate.index, header: headers[candidate.index] ?? '' });
  }
  return found.sort((a, b) => a.index - b.index);
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
