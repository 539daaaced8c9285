import type { FieDocumentSummary, FieEntryView, FieListPage } from '#shared/api/fie.ts';
import { fie as text } from '../../i18n/es-fie.ts';

/** A document as the list shows it: its header and the entries of it loaded so far (of `matches`). */
export type ListedDocument = FieDocumentSummary & { entries: FieEntryView[] };

/**
 * One line of the flat list: a document's header, one of its entries when the document is open, or,
 * after an open document's loaded entries, the row that loads the rest of them (issue 43, 6).
 */
export type FieRow =
  | { kind: 'document'; key: string; document: ListedDocument; expanded: boolean }
  | { kind: 'entry'; key: string; document: ListedDocument; entry: FieEntryView }
  | { kind: 'more'; key: string; document: ListedDocument; missing: number };

/** The pages loaded as the list's documents (the first page's), each with its entries of every page, in order. */
export function listedDocuments(pages: readonly FieListPage[]): ListedDocument[] {
  const byDocument = new Map<string, FieEntryView[]>();
  for (const page of pages) {
    for (const entry of page.entries) {
      const list = byDocument.get(entry.fieId);
      if (list) list.push(entry);
      else byDocument.set(entry.fieId, [entry]);
    }
  }
  return (pages[0]?.documents ?? []).map((document) => ({ ...document, entries: byDocument.get(document._id) ?? [] }));
}

/** Document headers, each followed by its loaded entries when it is open, and a 'more' row while some are not loaded yet. */
export function flattenRows(documents: readonly ListedDocument[], isExpanded: (documentId: string) => boolean): FieRow[] {
  const rows: FieRow[] = [];
  for (const document of documents) {
    const expanded = isExpanded(document._id);
    rows.push({ kind: 'document', key: `d:${document._id}`, document, expanded });
    if (!expanded) continue;
    for (const entry of document.entries) rows.push({ kind: 'entry', key: `e:${document._id}:${entry._id}`, document, entry });
    const missing = document.matches - document.entries.length;
    if (missing > 0) rows.push({ kind: 'more', key: `m:${document._id}`, document, missing });
  }
  return rows;
}

/** Whether an entry can be chosen for A3: never dop, nac, jub, nor an anulado parte (issue 43, 8). */
export const isSelectable = (entry: FieEntryView) => !entry.disabled && !entry.isCanceled;

/** Entries that can be chosen for A3, each once however many documents carry it (issue 43, 7). */
export function selectableIds(documents: readonly { entries: readonly FieEntryView[] }[]): string[] {
  return [...new Set(documents.flatMap((document) => document.entries.filter(isSelectable).map((entry) => entry._id)))];
}

/** Partes loaded: an entry two documents carry counts once. */
export function partCount(documents: readonly { entries: readonly FieEntryView[] }[]): number {
  return new Set(documents.flatMap((document) => document.entries.map((entry) => entry._id))).size;
}

/** yyyy-mm-dd (or a full ISO instant) as dd/mm/yyyy; '—' when absent. */
export function formatDay(iso: string | null): string {
  if (!iso) return text.list.none;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}

/** An 11-digit CCC as 'PP/NNNNNNN/DD' (how the list shows it); anything else as it came. */
export function formatCcc(ccc: string | null): string | null {
  if (ccc === null) return null;
  const match = /^(\d{2})(\d{7})(\d{2})$/.exec(ccc);
  return match ? `${match[1]}/${match[2]}/${match[3]}` : ccc;
}

/** The header's date: registryDate ('dd/mm/yyyy' or 'first • last'), else the document's day. */
export const documentDate = (document: Pick<FieDocumentSummary, 'registryDate' | 'date'>) => document.registryDate ?? formatDay(document.date);
export const documentName = (document: Pick<FieDocumentSummary, 'fileName'>) => document.fileName ?? text.list.noFileName;

/** 'Baja 03/02/2025 – 05/02/2025' style: the leave's start and end, or the registration day when there is no leave. */
export function entryDates(entry: FieEntryView): { label: string; value: string }[] {
  const dates: { label: string; value: string }[] = [];
  if (entry.leaveStart) dates.push({ label: text.list.leave, value: formatDay(entry.leaveStart) });
  if (entry.leaveEnd) dates.push({ label: text.list.leaveEnd, value: formatDay(entry.leaveEnd) });
  if (dates.length === 0 && entry.registrationDate) dates.push({ label: text.list.registration, value: formatDay(entry.registrationDate) });
  return dates;
}
