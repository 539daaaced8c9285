import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { RunNotification } from '../../app/shell/RunNotification.tsx';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import LauncherPage from './LauncherPage.tsx';
import { formFlow } from './test/flowFixture.ts';
import { launcherApi, output, runState, subscription } from './test/launcherApi.ts';
import { executionPath, launchButton, statePath } from './test/renderLauncher.tsx';

afterEach(() => vi.unstubAllGlobals());

/** The long poll held open until the test answers it, as the server does until something changes. */
function heldPolls() {
  const waiting: ((response: Response) => void)[] = [];
  return {
    handler: () => new Promise<Response>((resolve) => waiting.push(resolve)),
    async answer(state: ExecutionStateResponse) {
      await waitFor(() => expect(waiting).toHaveLength(1));
      waiting.shift()?.(jsonResponse(200, state));
    },
  };
}

/** The launcher beside another page and the shell's run notification, on a mocked API. */
function renderLauncherWithShell(routes: Parameters<typeof launcherApi>[0]) {
  const flow = formFlow();
  const api = launcherApi({
    [`GET /api/browserflow/flow/${flow.id}`]: () => jsonResponse(200, flow),
    'GET /api/subscriptions/launcher': () => jsonResponse(200, subscription),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchMock);
  const view = renderWithApp(
    <>
      <Routes>
        <Route path="/launcher/:id" element={<LauncherPage />} />
        <Route path="/flows/:id?" element={<h1>Robots</h1>} />
      </Routes>
      <RunNotification />
    </>,
    { path: `/launcher/${flow.id}`, preloadedState: signedInState(), toasts: true },
  );
  return { api, ...view };
}

async function fillFormFlow() {
  fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  fireEvent.change(await screen.findByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
  fireEvent.change(screen.getByLabelText('Horas semanales'), { target: { value: '37,5' } });
  fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '401' } });
  fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
}

const inProgress = () => screen.queryByRole('complementary', { name: 'Robot en curso' });

describe('LauncherPage and the run notification (issue 19)', { timeout: 15_000 }, () => {
  it('a run left going shows its progress in the notification, fed by the same poll, and ends as the finished notification', async () => {
    const polls = heldPolls();
    const { api } = renderLauncherWithShell({
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState()),
      [`GET ${statePath}`]: polls.handler,
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    await screen.findByRole('heading', { level: 2, name: 'Trabajando' });

    // While the launcher shows it, the launcher alone tells the progress, in the same es-ES figures.
    await polls.answer(runState({ successfulIterations: 4_500, totalIterations: 1_000_000 }));
    expect(await screen.findByText('4.500 de 1.000.000 completadas')).toBeTruthy();
    expect(inProgress()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(await screen.findByRole('heading', { name: 'Robots' })).toBeTruthy();
    // At once, before the next poll answers.
    expect(inProgress()).toBeTruthy();
    expect(screen.getByText('Alta rápida: En curso')).toBeTruthy();
    expect(screen.getByText('4.500 de 1.000.000 completadas')).toBeTruthy();

    await polls.answer(runState({ successfulIterations: 45_000, totalIterations: 1_000_000 }));
    expect(await screen.findByText('45.000 de 1.000.000 completadas')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Progreso de Alta rápida' }).getAttribute('value')).toBe('45000');

    await polls.answer(runState({ state: 'finished', successfulIterations: 1_000_000, totalIterations: 1_000_000, output: output(200) }));
    expect(await screen.findByText('Alta rápida: Finalizado')).toBeTruthy();
    expect(screen.getByText('Coste: 2 slans')).toBeTruthy();
    // One poll followed the run all along: the launcher's, each asked after the previous answer.
    expect(api.calls.filter((call) => call.path === statePath)).toHaveLength(3);
  });
});
