import { vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import type { BridgeClient } from '../../../bridge/client.ts';
import { jsonResponse, renderWithApp, signedInState, testUser } from '../../../test/renderApp.tsx';
import LauncherPage from '../LauncherPage.tsx';
import { launcherApi, subscription } from './launcherApi.ts';

function Where() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

/** The launcher for `flow` (404 when null) on a mocked API, beside the pages it may lead to. */
export function renderLauncher(
  flow: FlowDefinition | null,
  routes: Parameters<typeof launcherApi>[0] = {},
  currencies?: string,
  /** The desktop app: its user agent and bridge (web mode by default). */
  desktop?: { bridge: BridgeClient },
) {
  const api = launcherApi({
    [`GET /api/browserflow/flow/${flow?.id ?? 'perdido'}`]: () =>
      flow ? jsonResponse(200, flow) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Este robot ya no forma parte de nuestra familia' }),
    'GET /api/subscriptions/launcher': () => jsonResponse(200, subscription),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchMock);
  const view = renderWithApp(
    <>
      <Routes>
        <Route path="/launcher/:id" element={<LauncherPage />} />
        <Route path="/payments" element={<h1>Pagos</h1>} />
        <Route path="/flows/:id?" element={<h1>Robots</h1>} />
      </Routes>
      <Where />
    </>,
    {
      path: `/launcher/${flow?.id ?? 'perdido'}`,
      preloadedState: signedInState(testUser({}, currencies ? { currencies } : {})),
      toasts: true,
      ...(desktop ? { embedded: true, bridge: desktop.bridge } : {}),
    },
  );
  return { api, ...view };
}

export const executionPath = (flowId: string) => `/api/browserflow/execution/${flowId}`;
export const statePath = '/api/browserflow/execution/state/token-1';
export const launchButton = () => screen.getByRole('button', { name: 'Lanzar tarea' });
