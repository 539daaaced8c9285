import type { FieDocumentView, FieEntryView } from '#shared/api/fie.ts';
import { fie as text } from '../../i18n/es-fie.ts';

/** One line of the flat list: a document's header, or one of its entries when the document is open. */
export type FieRow =
  | { kind: 'document'; key: string; document: FieDocumentView; expanded: boolean }
  | { kind: 'entry'; key: string; document: FieDocumentView; entry: FieEntryView };

/** Newest first by date, then by upload time: the server's order, kept if an answer arrives unordered. */
export function newestFirst(documents: readonly FieDocumentView[]): FieDocumentView[] {
  return [...documents].sort((a, b) => b.date.localeCompare(a.date) || b.createdAt.localeCompare(a.createdAt));
}

/** Document headers, each followed by its entries when it is open: what the virtual list draws. */
export function flattenRows(documents: readonly FieDocumentView[], isExpanded: (documentId: string) => boolean): FieRow[] {
  const rows: FieRow[] = [];
  for (const document of documents) {
    const expanded = isExpanded(document._id);
    rows.push({ kind: 'document', key: `d:${document._id}`, document, expanded });
    if (expanded) for (const entry of document.entries) rows.push({ kind: 'entry', key: `e:${document._id}:${entry._id}`, document, entry });
  }
  return rows;
}

/** Whether an entry can be chosen for A3: never dop, nac, jub, nor an anulado parte (issue 43, 8). */
export const isSelectable = (entry: FieEntryView) => !entry.disabled && !entry.isCanceled;

/** Entries that can be chosen for A3, each once however many documents carry it (issue 43, 7). */
export function selectableIds(documents: readonly FieDocumentView[]): string[] {
  return [...new Set(documents.flatMap((document) => document.entries.filter(isSelectable).map((entry) => entry._id)))];
}

/** Partes shown: an entry two documents carry counts once. */
export function partCount(documents: readonly FieDocumentView[]): number {
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
export const documentDate = (document: FieDocumentView) => document.registryDate ?? formatDay(document.date);
export const documentName = (document: FieDocumentView) => document.fileName ?? text.list.noFileName;

/** 'Baja 03/02/2025 – 05/02/2025' style: the leave's start and end, or the registration day when there is no leave. */
export function entryDates(entry: FieEntryView): { label: string; value: string }[] {
  const dates: { label: string; value: string }[] = [];
  if (entry.leaveStart) dates.push({ label: text.list.leave, value: formatDay(entry.leaveStart) });
  if (entry.leaveEnd) dates.push({ label: text.list.leaveEnd, value: formatDay(entry.leaveEnd) });
  if (dates.length === 0 && entry.registrationDate) dates.push({ label: text.list.registration, value: formatDay(entry.registrationDate) });
  return dates;
}
