import { afterEach, beforeAll, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlowLog, FlowSummary, ScheduledFlow } from '#shared/api/flows.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState, testUser } from '../../../test/renderApp.tsx';
import FlowsPage from '../FlowsPage.tsx';

/** FlowsPage's tests (FlowsPage*.test.tsx): the page on a stubbed fetch, and what they read from it. */

/** Registers the file's hooks: the lazy dialog and react-markdown fetched up front, stubs and spies undone after each test. */
export function setUpFlowsPageTests() {
  // The dialog and react-markdown load lazily; fetch them once up front so no test races a cold import.
  beforeAll(() => Promise.all([preloadModal(), import('../../../ui/Markdown.tsx')]), 30_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export type Handler = (url: URL) => Response | Promise<Response>;

/** fetch answering by "METHOD /path" (query string apart, for the handler to read); records "METHOD /path?query". */
export function stubApi(routes: Record<string, Handler>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    calls.push(`${key}${url.search}`);
    const handler = routes[key];
    return handler ? handler(url) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

/** GET flowlog over a list of runs: the server's paging and scheduled filter. */
export function historyOf(runs: FlowLog[]): Handler {
  return (url) => {
    const scheduled = url.searchParams.get('scheduled');
    const selected = scheduled === null ? runs : runs.filter((run) => run.scheduled === (scheduled === 'true'));
    const start = Number(url.searchParams.get('start') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 12);
    return jsonResponse(200, { total: selected.length, items: selected.slice(start, start + limit) });
  };
}

export const catalogueOf = (items: FlowSummary[]): Handler => () => jsonResponse(200, { items });
export const schedulesOf = (items: ScheduledFlow[]): Handler => () => jsonResponse(200, { items });

/** A desktop machine of the firm, by its id. */
export const MESA = '33333333-3333-4333-8333-333333333333';

function CurrentPath() {
  const location = useLocation();
  return (
    <>
      <output aria-label="ruta">{location.pathname}</output>
      <output aria-label="consulta">{location.search}</output>
    </>
  );
}

const firm = { currencies: 'crédito|créditos' };

export function renderAt(path: string, { embedded = false, bridge }: { embedded?: boolean; bridge?: BridgeClient } = {}) {
  return renderWithApp(
    <Routes>
      <Route path="/flows/:id?" element={<><FlowsPage /><CurrentPath /></>} />
      <Route path="/launcher/:id" element={<CurrentPath />} />
    </Routes>,
    { path, embedded, bridge, toasts: true, preloadedState: signedInState(testUser({}, firm)) },
  );
}

export const currentPath = () => screen.getByRole('status', { name: 'ruta' }).textContent;
/** The address's query string (?q=…&robot=…), as the history writes its filters there. */
export const currentQuery = () => screen.getByRole('status', { name: 'consulta' }).textContent;
export const catalogue = () => screen.getByRole('navigation', { name: 'Catálogo de robots' });
export const historyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');
