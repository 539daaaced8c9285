import { afterEach, beforeAll, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Machine } from '#shared/api/machines.ts';
import type { Notification, NotificationsSummary, WatchedCertificate } from '#shared/api/notifications.ts';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { preloadModal } from '../../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../../test/renderApp.tsx';
import NotificationsPage from '../NotificationsPage.tsx';

/** NotificationsPage's tests: the page on a stubbed fetch, fixtures of the API's shapes, a fake desktop bridge. */

export function setUpNotificationsTests() {
  beforeAll(() => preloadModal(), 30_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export interface Call {
  key: string;
  url: URL;
  body: unknown;
}
export type Handler = (call: Call) => Response | Promise<Response>;

/** fetch answering by "METHOD /path" (query apart, for the handler to read); every call is recorded. */
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

export const ok = (body: unknown): Handler => () => jsonResponse(200, body);

export const MACHINE_HERE = '11111111-1111-4111-8111-111111111111';
export const MACHINE_OFFICE = '22222222-2222-4222-8222-222222222222';
export const FINGERPRINT_A = 'a'.repeat(64);
export const FINGERPRINT_B = 'b'.repeat(64);

export function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    _id: '33333333-3333-4333-8333-333333333333', identificador: 'N-1', titular: 'TALLERES NORTE SL', titularNif: 'B12345678', organoEmisor: 'Agencia Tributaria',
    organismoRaiz: null, codProcedimiento: 'G302', concepto: 'Requerimiento de información', descripcion: null, tipo: 'notificacion', vinculo: 'titular',
    disposicion: '2026-11-20T09:00:00.000Z', caducidad: '2026-11-30T09:00:00.000Z', estado: 'pendiente',
    certificate: { fingerprint: FINGERPRINT_A, commonName: 'TALLERES NORTE SL', machine: { _id: MACHINE_HERE, name: 'PC-ANA' } },
    openedAt: null, openedBy: null, documentCount: 0, firstSeenAt: '2026-11-20T10:00:00.000Z', ...overrides,
  };
}

export function watched(overrides: Partial<WatchedCertificate> = {}): WatchedCertificate {
  return {
    fingerprint: FINGERPRINT_A, commonName: 'TALLERES NORTE SL', nif: 'B12345678',
    machine: { _id: MACHINE_HERE, name: 'PC-ANA', online: true, mine: true }, available: true, lastUpdate: null, pendingUpdate: null, ...overrides,
  };
}

export function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs, machineHashCode: 'f'.repeat(64), sync: true, shared: false, mine: true, owner: { email: 'ana@asesoria.es', name: 'Ana' },
    certificates: [], configs: [], lastSyncAt: '2026-01-01T00:00:00Z', linked: true, online: true, lastSeenAt: '2026-01-01T00:00:00Z',
    createdAt: '2026-01-01T00:00:00Z', ...overrides,
  };
}

export const summary = (overrides: Partial<NotificationsSummary> = {}): NotificationsSummary => ({
  newCount: 0, expiringSoonCount: 0, soonestCaducidad: null, lastUpdateAt: '2026-11-25T08:30:00.000Z', ...overrides,
});

/** The routes every page render asks for, answered with an updated firm and one page of notifications; `extra` adds or replaces. */
export function pageRoutes(items: Notification[], extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/notifications': ok({ total: items.length, page: 1, items }),
    'GET /api/notifications/summary': ok(summary()),
    'GET /api/notifications/certificates': ok({ items: [watched()] }),
    'GET /api/machines': ok({ items: [machine({ _id: MACHINE_HERE, savedAs: 'PC-ANA' })] }),
    ...extra,
  };
}

/** A desktop bridge answering each command with `answers`; calls recorded. */
export function fakeBridge(answers: Partial<Record<BridgeCommand, (args: unknown) => unknown>>) {
  const calls: { command: BridgeCommand; args: unknown }[] = [];
  const bridge = {
    kind: 'agent',
    available: true,
    invoke: async (command: BridgeCommand, args: unknown) => {
      calls.push({ command, args });
      const answer = answers[command];
      return answer ? answer(args) : { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
    },
    on: () => () => undefined,
  } as unknown as BridgeClient;
  return { bridge, calls, commands: () => calls.map((call) => call.command) };
}

/** The answers a PC linked to this server as MACHINE_HERE gives before any desktop action. */
export const linkedHereAnswers = {
  GetDeviceStatus: () => ({ ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: MACHINE_HERE, name: 'PC-ANA' }, problem: null } }),
};

function CurrentQuery() {
  return <output aria-label="consulta">{useLocation().search}</output>;
}

export function renderNotifications(path = '/notifications', { bridge }: { bridge?: BridgeClient } = {}) {
  return renderWithApp(
    <Routes>
      <Route path="/notifications" element={<><NotificationsPage /><CurrentQuery /></>} />
    </Routes>,
    { path, bridge, toasts: true, preloadedState: signedInState() },
  );
}

export const currentQuery = () => screen.getByRole('status', { name: 'consulta', hidden: true }).textContent ?? '';
/** The list's GET calls, as their URLSearchParams. */
export const listQueries = (calls: Call[]) => calls.filter((call) => call.key === 'GET /api/notifications').map((call) => call.url.searchParams);
