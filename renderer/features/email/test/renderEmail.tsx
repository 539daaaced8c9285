import { afterEach, beforeAll, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { MailAccount } from '#shared/api/mail.ts';
import type { Machine } from '#shared/api/machines.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import EmailWizardPage from '../EmailWizardPage.tsx';

/** The email wizard's tests: the page on a stubbed fetch, fixtures of the API's shapes, a fake bridge. */

export function setUpEmailTests() {
  beforeAll(() => preloadModal(), 30_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    window.sessionStorage.clear();
  });
}

export interface Call {
  key: string;
  url: URL;
  body: unknown;
}
export type Handler = (call: Call) => Response | Promise<Response>;

/** fetch answering by "METHOD /path"; every call is recorded. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { key, url, body };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

export const ok = (body: unknown, status = 200): Handler => () => jsonResponse(status, body);

export const MACHINE_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_MACHINE_ID = '22222222-2222-4222-8222-222222222222';

export function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared: false, mine: true, owner: { email: 'ana@asesoria.es', name: 'Ana' },
    certificates: [], configs: [], lastSyncAt: '2026-01-01T00:00:00Z', linked: true, online: true, lastSeenAt: '2026-01-01T00:00:00Z',
    createdAt: '2026-01-01T00:00:00Z', ...overrides,
  };
}

export const oficina = machine({ _id: MACHINE_ID, savedAs: 'PC Oficina' });
export const portatil = machine({ _id: OTHER_MACHINE_ID, savedAs: 'Portátil de Ana' });

export function account(overrides: Partial<MailAccount> = {}): MailAccount {
  return {
    _id: 'acc-1', provider: 'google', email: 'despacho@asesoria.es', status: 'linked', problem: null, mine: true,
    linkedBy: { name: 'Ana', email: 'ana@asesoria.es' }, linkedAt: '2026-11-01T09:00:00.000Z', lastUsedAt: null, ...overrides,
  };
}

export const relinkAccount = account({
  _id: 'acc-2', provider: 'microsoft', email: 'nominas@asesoria.es', status: 'needs_relink', mine: false,
  problem: 'La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.', linkedBy: { name: 'Luis', email: 'luis@asesoria.es' },
});

/** The routes every wizard render asks for; `extra` adds or replaces. */
/** What the server announces for its desktop client (Microsoft only here: Google's comes from the PC's own settings). */
export const DESKTOP_CLIENTS = {
  google: null,
  microsoft: { authorizationUrl: 'https://login.example.test/common/oauth2/v2.0/authorize', issuer: 'https://login.example.test/{tenantid}/v2.0', clientId: 'desktop-client' },
};

export function baseRoutes(accounts: MailAccount[], extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/machines': ok({ items: [oficina, portatil] }),
    'GET /api/configs': ok({ items: [] }),
    'GET /api/mail/accounts': ok({ items: accounts }),
    'GET /api/mail/oauth/desktop-clients': ok(DESKTOP_CLIENTS),
    ...extra,
  };
}

function WorkspaceProbe() {
  const location = useLocation();
  return <p>{`En Mis recursos ${location.pathname}${location.search}`}</p>;
}

/** The wizard at `path` with the shell's toasts; /workspace answers with a marker. */
export function renderWizard(path = `/email?machine=${MACHINE_ID}`, bridge?: BridgeClient) {
  return renderWithApp(
    <Routes>
      <Route path="/email" element={<EmailWizardPage />} />
      <Route path="/workspace" element={<WorkspaceProbe />} />
    </Routes>,
    { path, preloadedState: signedInState(), toasts: true, ...(bridge ? { bridge, embedded: true } : {}) },
  );
}

/** A bridge that answers OAuthConnect with `answer`; other commands are refused. */
export function fakeBridge(answer: () => Promise<unknown>) {
  const invoke = vi.fn(async (command: string, _args: unknown) => {
    if (command === 'OAuthConnect') return answer();
    return { ok: false, error: { code: 'UNAVAILABLE', message: 'No disponible' } };
  });
  const bridge = { kind: 'agent', available: true, invoke, on: () => () => undefined } as unknown as BridgeClient;
  return { bridge, invoke };
}
