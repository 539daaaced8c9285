import { vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { RunNotification } from '../../../app/shell/RunNotification.tsx';
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
  {
    bridge,
    runNotification = false,
    search = '',
  }: {
    /** The desktop app: its user agent and bridge (web mode by default). */
    bridge?: BridgeClient;
    /** Also the shell's run notification (RunNotification), as the app shows it beside any page. */
    runNotification?: boolean;
    /** The address's query ('?machine=<id>': a link that names the machine). */
    search?: string;
  } = {},
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
      {runNotification && <RunNotification />}
    </>,
    {
      path: `/launcher/${flow?.id ?? 'perdido'}${search}`,
      preloadedState: signedInState(testUser({}, currencies ? { currencies } : {})),
      toasts: true,
      ...(bridge ? { embedded: true, bridge } : {}),
    },
  );
  return { api, ...view };
}

export const executionPath = (flowId: string) => `/api/browserflow/execution/${flowId}`;
export const statePath = '/api/browserflow/execution/state/token-1';
export const launchButton = () => screen.getByRole('button', { name: 'Lanzar tarea' });

/** Fills the form flow's two steps with valid values and stops on the launching one. */
export async function fillFormFlow() {
  fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  fireEvent.change(await screen.findByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
  fireEvent.change(screen.getByLabelText('Horas semanales'), { target: { value: '37,5' } });
  fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '401' } });
  fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
}
