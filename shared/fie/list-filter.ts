import type { FieDocumentView, FieEntryView, FieListQuery } from '../api/fie.ts';

/*
 * The FIE list's filters (shared/api/fie.ts FieListQuery) as one rule for both sides: the server turns
 * them into SQL over the columns it stores (server/modules/fie/store.ts), and the screen applies them to
 * the list it already holds, so a filter answers in milliseconds instead of a round trip that carries
 * thousands of entries again. The tests of both check the same cases.
 */

/** Lower case without accents or extra spaces: how names, NIFs and companies are searched ('Peña' finds 'PENA'). */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the search looks in: the worker's full name, NIF and company, folded. */
export function entrySearchText(fullname: string, nif: string | null, companyName: string | null): string {
  return foldText([fullname, nif ?? '', companyName ?? ''].join(' '));
}

/** The day the date filters compare: the leave's start (1020), else the registration date (100). */
export function entryDate(entry: Pick<FieEntryView, 'leaveStart' | 'registrationDate'>): string | null {
  return entry.leaveStart ?? entry.registrationDate;
}

/** Whether the query filters entries at all (otherwise every document is listed, even an empty one). */
export function filtersEntries(query: FieListQuery): boolean {
  return Boolean(query.q?.trim()) || query.type !== undefined || query.from !== undefined || query.to !== undefined || query.a3 !== undefined;
}

/** Each listed entry's folded text, made once: a list holds the same entry objects while the filters change. */
const searchTexts = new WeakMap<FieEntryView, string>();

function searchTextOf(entry: FieEntryView): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = entrySearchText(entry.fullname, entry.nif, entry.companyName);
    searchTexts.set(entry, text);
  }
  return text;
}

/** Folds every entry's text ahead (when a list arrives), so the first search costs what the later ones do. */
export function prepareFieSearch(documents: readonly FieDocumentView[]): void {
  for (const document of documents) for (const entry of document.entries) searchTextOf(entry);
}

/** A predicate over entries for one query, with its folded text and type set worked out once. */
export function fieEntryFilter(query: FieListQuery): (entry: FieEntryView) => boolean {
  const q = foldText(query.q ?? '');
  const types = query.type === undefined ? null : new Set(query.type.split(','));
  const { from, to, a3 } = query;
  return (entry) => {
    if (types !== null && !types.has(entry.type)) return false;
    if (a3 !== undefined && entry.a3sync !== a3) return false;
    if (from !== undefined || to !== undefined) {
      const day = entryDate(entry);
      if (day === null || (from !== undefined && day < from) || (to !== undefined && day > to)) return false;
    }
    return q === '' || searchTextOf(entry).includes(q);
  };
}

/** The documents with their entries that match; with entry filters, documents left with none are dropped. */
export function filterFieDocuments(documents: readonly FieDocumentView[], query: FieListQuery): FieDocumentView[] {
  if (!filtersEntries(query)) return [...documents];
  const matches = fieEntryFilter(query);
  const out: FieDocumentView[] = [];
  for (const document of documents) {
    const entries = document.entries.filter(matches);
    if (entries.length > 0) out.push(entries.length === document.entries.length ? document : { ...document, entries });
  }
  return out;
}
