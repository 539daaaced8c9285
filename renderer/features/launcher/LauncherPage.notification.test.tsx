import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { formFlow } from './test/flowFixture.ts';
import { output, runState } from './test/launcherApi.ts';
import { executionPath, fillFormFlow, launchButton, renderLauncher, statePath } from './test/renderLauncher.tsx';

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
const renderLauncherWithShell = (routes: Parameters<typeof renderLauncher>[1]) => renderLauncher(formFlow(), routes, undefined, { runNotification: true });

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
