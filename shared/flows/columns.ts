import type { MappedColumn } from './definition.ts';

/**
 * Which workbook header holds each column a ColumnMapping input asks for, found by the column's
 * header hints. The launcher preselects with it, so what the user sees chosen is what a robot that
 * detects columns itself would choose.
 */

/** How headers and hints are compared: lower case, no accents, no punctuation, single spaces. */
export function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
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

/** A column found in the sheet: which mapped column, at which 0-based index, under which header. */
export interface DetectedColumn<Column> {
  column: Column;
  index: number;
  header: string;
}

type Hinted = { key: MappedColumn['key']; headerHints: readonly string[] };

/**
 * Each mapped column gets the header that matches one of its hints best; a header serves one column.
 * The strongest matches are settled first, so 'Código cuenta cotización' goes to the CCC (whole
 * header) before a looser 'cuenta' hint can take it. Found columns come in sheet order.
 */
export function detectColumns<Column extends Hinted>(headers: readonly string[], columns: readonly Column[]): DetectedColumn<Column>[] {
  const keys = headers.map(headerKey);
  const candidates: { column: Column; index: number; score: number; hintLength: number }[] = [];
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
  const found: DetectedColumn<Column>[] = [];
  for (const candidate of candidates) {
    if (takenColumns.has(candidate.column.key) || takenHeaders.has(candidate.index)) continue;
    takenColumns.add(candidate.column.key);
    takenHeaders.add(candidate.index);
    found.push({ column: candidate.column, index: candidate.index, header: headers[candidate.index] ?? '' });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The launcher's preselection: each mapped column's key -> the header detection picks, or null. */
export function detectColumnHeaders(headers: readonly string[], columns: readonly Hinted[]): Record<string, string | null> {
  const mapping: Record<string, string | null> = Object.fromEntries(columns.map((column) => [column.key, null]));
  for (const { column, header } of detectColumns(headers, columns)) mapping[column.key] = header;
  return mapping;
}
