import { MANAGED_DOCUMENT_KINDS } from '#shared/api/documentmanager.ts';
import type { ManagedDocument, ManagedDocumentKind, ManagedDocumentsQuery } from '#shared/api/documentmanager.ts';
import { formatMadridDate, formatMadridDateTime } from '#shared/time/madrid.ts';
import { documanager as text } from '../../i18n/es-documanager.ts';

/** What the screen shows, read from and written to its address (?kind=&company=&q=&page=). */
export interface DocumentManagerView {
  kind: ManagedDocumentKind | '';
  company: string;
  q: string;
  page: number;
}

export const SEARCH_DEBOUNCE_MS = 400;
const MAX_TEXT = 200;

const isKind = (value: string): value is ManagedDocumentKind => (MANAGED_DOCUMENT_KINDS as readonly string[]).includes(value);

/** The view an address names; anything unreadable (an unknown kind, page 0, 'abc') falls back to its default. */
export function readView(params: URLSearchParams): DocumentManagerView {
  const kind = params.get('kind') ?? '';
  const page = Number(params.get('page') ?? '1');
  return {
    kind: isKind(kind) ? kind : '',
    company: (params.get('company') ?? '').slice(0, MAX_TEXT),
    q: (params.get('q') ?? '').slice(0, MAX_TEXT),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The address of a view: only what differs from the defaults, so a plain /documanager stays plain. */
export function writeView(view: DocumentManagerView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.kind) params.set('kind', view.kind);
  if (view.company) params.set('company', view.company);
  if (view.q.trim()) params.set('q', view.q.trim());
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** The API query of a view (same parameters, without the empty ones). */
export function toQuery(view: DocumentManagerView): ManagedDocumentsQuery {
  return {
    ...(view.kind ? { kind: view.kind } : {}),
    ...(view.company ? { company: view.company } : {}),
    ...(view.q.trim() ? { q: view.q.trim() } : {}),
    ...(view.page > 1 ? { page: view.page } : {}),
  };
}

export const hasFilters = (view: DocumentManagerView) => view.kind !== '' || view.company !== '' || view.q.trim() !== '';

/** 'Se conserva hasta dd/mm/yyyy' (the Madrid day it goes), or kept until someone removes it. */
export function retentionText(document: Pick<ManagedDocument, 'expiresAt'>): string {
  return document.expiresAt === null ? text.keptForever : text.keptUntil(formatMadridDate(new Date(document.expiresAt)));
}

/** 'dd/mm/yyyy HH:mm' in Madrid. */
export const formatCreatedAt = (iso: string) => formatMadridDateTime(new Date(iso));
