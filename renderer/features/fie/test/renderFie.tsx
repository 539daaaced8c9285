import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { fieListQuerySchema } from '#shared/api/fie.ts';
import type { FieDocumentView, FieEntryView, FieListPage, FieUploadResponse, ReconciliationRow } from '#shared/api/fie.ts';
import { filterFieDocuments } from '#shared/fie/list-filter.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import FiePage from '../FiePage.tsx';

/** FiePage's tests: the page on a stubbed fetch, fixtures of the API's shapes, and what they read from the page. */

export function setUpFieTests() {
  beforeAll(() => preloadModal(), 30_000);
  // jsdom has no layout: the list's scroll box gets the height the CSS would give it, so the virtual list draws rows.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export interface Call {
  key: string;
  url: URL;
  init: RequestInit | undefined;
}

export type Handler = (call: Call) => Response | Promise<Response>;

/** fetch answering by "METHOD /path" (query apart, for the handler to read); every call is recorded. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    const call = { key, url, init };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

/**
 * GET fie's page (issue 43, 6) over these documents as the server answers it: the query parsed with the
 * contract's schema, filtered with the rule the server's SQL follows (shared/fie/list-filter.ts; the
 * server's tests check the two agree), `limit` entries from `offset`, and the counts.
 */
export function pageOf(items: readonly FieDocumentView[], url: URL): FieListPage {
  const query = fieListQuerySchema.parse(Object.fromEntries(url.searchParams));
  // The server's order: newest first by day, then by upload time.
  const ordered = [...items].sort((a, b) => b.date.localeCompare(a.date) || b.createdAt.localeCompare(a.createdAt));
  const documents = filterFieDocuments(ordered, query);
  const rows = documents.flatMap((document) => document.entries.map((listed) => ({ ...listed, fieId: document._id })));
  const offset = query.offset ?? 0;
  const entries = rows.slice(offset, offset + (query.limit ?? rows.length));
  const end = offset + entries.length;
  return {
    ...(offset === 0 && { documents: documents.map(({ entries: listed, ...summary }) => ({ ...summary, matches: listed.length })) }),
    entries,
    total: new Set(rows.map((row) => row._id)).size,
    documentCount: documents.length,
    nextOffset: entries.length > 0 && end < rows.length ? end : null,
  };
}

/** GET fie?select=ids over these documents: the matching partes that can go to A3, each once. */
export function matchingIdsOf(items: readonly FieDocumentView[], url: URL): { ids: string[]; total: number } {
  const query = fieListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const ids = [...new Set(filterFieDocuments(items, query).flatMap((document) => document.entries.filter((listed) => !listed.disabled && !listed.isCanceled).map((listed) => listed._id)))];
  return { ids, total: ids.length };
}

export const listOf = (items: FieDocumentView[]): Handler => (call) =>
  jsonResponse(200, call.url.searchParams.get('select') === 'ids' ? matchingIdsOf(items, call.url) : pageOf(items, call.url));
export const uploadAnswer = (answer: FieUploadResponse): Handler => () => jsonResponse(200, answer);
export const reconciliationOf = (items: ReconciliationRow[]): Handler => () => jsonResponse(200, { items });

export function entry(overrides: Partial<FieEntryView> = {}): FieEntryView {
  return {
    _id: 'e1', fieId: 'f1', type: 'baja', typeLabel: 'Baja por incapacidad temporal', disabled: false,
    fullname: 'MARÍA GARCÍA LÓPEZ', nif: '12345678Z', companyName: 'TALLERES NORTE SL', ccc: '28123456789', formattedCcc: '28/1234567/89',
    registrationDate: '2025-02-03', leaveStart: '2025-02-03', leaveEnd: null, duration: null, shortDuration: false, isCanceled: false,
    contingency: 'Enfermedad común', incidence: { code: 2, label: 'IT enfermedad común' }, a3sync: 'pending', a3SyncedAt: null, lastError: null, confirmations: [],
    ...overrides,
  };
}

export function document(overrides: Partial<FieDocumentView> = {}): FieDocumentView {
  const entries = overrides.entries ?? [entry()];
  return {
    _id: 'f1', date: '2025-02-03', registryDate: '03/02/2025', fileName: 'FIE_20250203.txt', source: 'text', version: 'FIE4',
    createdAt: '2025-02-03T09:00:00.000Z', entryCount: entries.length, entries, ...overrides,
  };
}

function CurrentQuery() {
  return <output aria-label="consulta">{useLocation().search}</output>;
}

export function renderFie(path = '/fie', { bridge }: { bridge?: BridgeClient } = {}) {
  return renderWithApp(
    <Routes>
      <Route path="/fie" element={<><FiePage /><CurrentQuery /></>} />
    </Routes>,
    { path, bridge, toasts: true, preloadedState: signedInState() },
  );
}

/** The address's query string, as the screen writes its filters there. */
export const currentQuery = () => screen.getByRole('status', { name: 'consulta' }).textContent ?? '';
/** The list's GET calls, as "?query" strings of their filters (the page's limit and offset apart). */
export const listQueries = (calls: Call[]) =>
  calls
    .filter((call) => call.key === 'GET /api/fie' && call.url.searchParams.get('select') === null)
    .map((call) => {
      const params = new URLSearchParams(call.url.search);
      params.delete('limit');
      params.delete('offset');
      const text = params.toString();
      return text ? `?${text}` : '';
    });
/** The list's GET calls' offsets: the pages asked for. */
export const listOffsets = (calls: Call[]) => calls.filter((call) => call.key === 'GET /api/fie' && call.url.searchParams.get('select') === null).map((call) => Number(call.url.searchParams.get('offset')));

/** The toasts on screen: kind and lines. */
export function shownToasts(): { kind: string; lines: string[] }[] {
  return [...globalThis.document.querySelectorAll('.app-toast')].map((toast) => ({
    kind: [...toast.classList].find((name) => name.startsWith('app-toast--'))?.replace('app-toast--', '') ?? '',
    lines: (toast.querySelector(':scope > span')?.textContent ?? '').split('\n'),
  }));
}

/** GetDeviceStatus of a PC already linked to the window's server: the desktop actions check it before they run. */
export function linkedHere() {
  return { ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: 'pc-1', name: 'PC-ANA' }, problem: null } };
}
