import type { MappedColumn } from './definition.ts';

/**
 * Which workbook header holds each column a ColumnMapping input asks for, found by the column's
 * header hints. The launcher preselects with it, so what the user sees chosen is what a robot that
 * detects columns itself would choose.
 */

/** The ways a header writes "number": 'Nº', 'N.º', 'N°', 'Num.', 'Núm.', 'Número', 'Nro.', 'No.', a lone 'N'. */
const NUMBER_WORDS = new Set(['n', 'num', 'nun', 'nro', 'numero']);

/**
 * How headers and hints are compared: lower case, no accents, no punctuation, single spaces.
 * Abbreviations written with dots read as one word ('D.N.I.' -> 'dni', 'C.C.C.' -> 'ccc',
 * 'S.S.' -> 'ss'), and every way of writing "number" reads as 'numero' ('Nº afiliación',
 * 'N.º Afiliación', 'Num. afiliación' and 'Número de afiliación' all start with it).
 */
export function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // 'Nº', 'N.º', 'N °', 'nª' and 'No.' are the number word, whatever follows.
    .replace(/(^|[^a-z0-9])n\s*\.?\s*[º°ª]/g, '$1 numero ')
    .replace(/(^|[^a-z0-9])no\./g, '$1 numero ')
    // Single letters each followed by a dot are one word: 'd.n.i.' -> 'dni', 'n. i. f.' -> 'nif'.
    .replace(/(?<![a-z0-9])[a-z](?:\.\s?[a-z](?![a-z0-9]))+\.?/g, (letters) => letters.replace(/[.\s]/g, ''))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => (NUMBER_WORDS.has(word) ? 'numero' : word))
    .join(' ');
}

/**
 * How well a header matches a hint: the whole header (3), its first words (2), some of its words (1),
 * or not at all (0). A header starting with 'tipo' only matches hints that do too: 'Tipo de documento'
 * names the kind of document, not the number a 'documento' hint is after. A header joining two
 * things with 'y' ('Apellidos y nombre') matches only whole: it is neither of its parts.
 */
function matchScore(header: string, hint: string): number {
  if (header === '' || hint === '' || (header.startsWith('tipo ') && !hint.startsWith('tipo '))) return 0;
  if (header === hint) return 3;
  if (` ${header} `.includes(' y ') && !` ${hint} `.includes(' y ')) return 0;
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
